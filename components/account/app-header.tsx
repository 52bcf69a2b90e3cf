"use client";

import { useState } from "react";
import styles from "./account.module.css";
import { MenuButton } from "./menu-button";
import { signOut } from "./sign-out";

/** The signed-in user as the header shows it. */
export type HeaderCaller = { id: string; email: string; name: string };

/** One workspace the caller belongs to (GET /api/workspaces row). */
export type HeaderWorkspace = {
  id: string;
  name: string;
  slug: string;
  kind: "personal" | "team";
  role: string;
};

export type AppHeaderProps = {
  caller: HeaderCaller;
  workspaces: HeaderWorkspace[];
  /** The workspace the page shows; null = the personal one (the home default). */
  currentWorkspaceId: string | null;
  mode: "local" | "accounts";
};

/** Two-letter initials for the avatar ("Ada Lovelace" → "AL", "ada@x.io" → "A"). */
export function initials(name: string, email: string): string {
  const words = (name.trim() || email).split(/[\s@._-]+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0][0]}${words[1][0]}` : (words[0]?.[0] ?? "?");
  return letters.toUpperCase();
}

/**
 * The top bar of every signed-in page: "Strata" (home), the workspace switcher (personal workspace and teams,
 * each `/?workspace=<id>`; "New team…"; "Team settings" for the current team), the user guide (`/guide`) and the
 * account menu (name and email, Settings, Shared links, Sign out). Both menus are keyboard-operable WAI-ARIA menu buttons.
 */
export function AppHeader({ caller, workspaces, currentWorkspaceId, mode }: AppHeaderProps) {
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const personal = workspaces.find((w) => w.kind === "personal");
  const teams = workspaces.filter((w) => w.kind === "team");
  const current = workspaces.find((w) => w.id === currentWorkspaceId) ?? personal ?? null;
  const currentName = current ? (current.kind === "personal" ? "Personal" : current.name) : "Workspace";

  return (
    <header className={styles.appHeader}>
      <a href="/" className={styles.brand} aria-label="Strata home">
        <span className={styles.brandMark} aria-hidden="true" />
        Strata
      </a>
      <span className={styles.headerSep} aria-hidden="true">
        /
      </span>
      <MenuButton
        label={`Switch workspace (current: ${currentName})`}
        align="left"
        buttonContent={
          <>
            <span className={styles.wsName}>{currentName}</span>
            {current?.kind === "team" ? <span className={styles.roleTag}>{current.role}</span> : null}
            <span className={styles.caret} aria-hidden="true">
              ▾
            </span>
          </>
        }
      >
        {() => (
          <>
            {personal ? (
              <WorkspaceItem workspace={personal} label="Personal" current={current?.id === personal.id} />
            ) : null}
            <div className={styles.menuHeading} role="presentation">
              Teams
            </div>
            {teams.length === 0 ? (
              <div className={styles.menuNote} role="presentation">
                No teams yet
              </div>
            ) : (
              teams.map((t) => (
                <WorkspaceItem key={t.id} workspace={t} label={t.name} current={current?.id === t.id} />
              ))
            )}
            <hr className={styles.menuSep} />
            <a role="menuitem" className={styles.menuItem} href="/teams/new">
              New team…
            </a>
            {current?.kind === "team" ? (
              <a
                role="menuitem"
                className={styles.menuItem}
                href={`/teams/${encodeURIComponent(current.id)}`}
              >
                Team settings
              </a>
            ) : null}
            {current && (current.kind === "personal" || ["owner", "admin"].includes(current.role)) ? (
              // Provider keys and the sandbox switch: reachable whatever the project page's banners say.
              <a
                role="menuitem"
                className={styles.menuItem}
                href={`/workspaces/${encodeURIComponent(current.id)}/settings`}
              >
                Workspace settings (keys, sandbox)
              </a>
            ) : null}
          </>
        )}
      </MenuButton>
      <span className={styles.headerSpacer} />
      <a href="/guide" className={styles.headerLink}>
        Guide
      </a>
      {signOutError ? (
        <span className={styles.headerError} role="alert">
          {signOutError}
        </span>
      ) : null}
      <MenuButton
        label={`Account menu (${caller.email})`}
        buttonClassName={styles.avatarButton}
        buttonContent={<span className={styles.avatar}>{initials(caller.name, caller.email)}</span>}
      >
        {(close) => (
          <>
            <div className={styles.menuIdentity} role="presentation">
              <span className={styles.identityName}>{caller.name || caller.email}</span>
              <span className={styles.identityEmail}>{caller.email}</span>
              {mode === "local" ? <span className={styles.identityNote}>Local mode</span> : null}
            </div>
            <hr className={styles.menuSep} />
            <a role="menuitem" className={styles.menuItem} href="/settings">
              Settings
            </a>
            <a role="menuitem" className={styles.menuItem} href="/settings#shares">
              Shared links
            </a>
            <button
              type="button"
              role="menuitem"
              className={styles.menuItem}
              onClick={() => {
                close();
                setSignOutError(null);
                signOut().catch((err: unknown) =>
                  setSignOutError(
                    err instanceof Error ? err.message : "Sign-out failed. Reload and try again.",
                  ),
                );
              }}
            >
              Sign out
            </button>
          </>
        )}
      </MenuButton>
    </header>
  );
}

function WorkspaceItem({
  workspace,
  label,
  current,
}: {
  workspace: HeaderWorkspace;
  label: string;
  current: boolean;
}) {
  return (
    <a
      role="menuitem"
      className={styles.menuItem}
      href={`/?workspace=${encodeURIComponent(workspace.id)}`}
      aria-current={current ? "page" : undefined}
    >
      <span className={styles.check} aria-hidden="true">
        {current ? "✓" : ""}
      </span>
      <span className={styles.wsItemName}>{label}</span>
      {workspace.kind === "team" ? <span className={styles.roleTag}>{workspace.role}</span> : null}
    </a>
  );
}
