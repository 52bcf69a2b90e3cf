"use client";

import { useState } from "react";
import { MenuButton } from "@/components/account/menu-button";
import { DownloadDialog } from "./download-dialog";
import styles from "./git-remote.module.css";
import { currentBranch } from "./git-remote-api";
import { PullDialog } from "./pull-dialog";
import { PushDialog } from "./push-dialog";

type Open = "download" | "push" | "pull" | null;

/**
 * The project header's "Get work out" menu: Download .zip (anyone who can read the project), Push… and Pull… (members
 * and up; a read-only caller sees why they are missing). Each opens its dialog; a pull that changed files calls
 * `onPulled` (the IDE refreshes its tree and git indicator).
 */
export function GetWorkOutMenu({
  projectId,
  readOnly,
  onPulled,
}: {
  projectId: string;
  readOnly: boolean;
  onPulled: () => void;
}) {
  const [open, setOpen] = useState<Open>(null);
  const [branch, setBranch] = useState<string | null>(null);
  const show = (next: Open) => {
    setOpen(next);
    currentBranch(projectId).then(setBranch, () => setBranch(null));
  };
  return (
    <>
      <MenuButton
        label="Get work out"
        buttonClassName={`btn btn-small ${styles.trigger}`}
        buttonContent="Get work out ▾"
      >
        {(close) => (
          <>
            <button
              type="button"
              role="menuitem"
              className={styles.menuItem}
              onClick={() => {
                close();
                show("download");
              }}
            >
              Download .zip…
            </button>
            {readOnly ? (
              <p className={styles.menuNote}>
                Your role can read this project: push and pull need member access.
              </p>
            ) : (
              <>
                <button
                  type="button"
                  role="menuitem"
                  className={styles.menuItem}
                  onClick={() => {
                    close();
                    show("push");
                  }}
                >
                  Push to a git remote…
                </button>
                <button
                  type="button"
                  role="menuitem"
                  className={styles.menuItem}
                  onClick={() => {
                    close();
                    show("pull");
                  }}
                >
                  Pull from a git remote…
                </button>
              </>
            )}
          </>
        )}
      </MenuButton>
      {open === "download" ? (
        <DownloadDialog projectId={projectId} branch={branch} onClose={() => setOpen(null)} />
      ) : null}
      {open === "push" ? (
        <PushDialog projectId={projectId} branch={branch} onClose={() => setOpen(null)} />
      ) : null}
      {open === "pull" ? (
        <PullDialog projectId={projectId} branch={branch} onPulled={onPulled} onClose={() => setOpen(null)} />
      ) : null}
    </>
  );
}
