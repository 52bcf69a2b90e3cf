"use client";

import { useRef, useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import styles from "./share.module.css";
import type { ShareSummary } from "./share-api";
import { absoluteShareUrl, expiryText } from "./view-model";

/** The link just published: the full URL (selectable), Copy and Open, and its expiry. */
export function ShareLinkResult({ share }: { share: ShareSummary }) {
  const url = absoluteShareUrl(share.url, window.location.origin);
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("yes");
    } catch {
      input.current?.select();
      setCopied("failed");
    }
  };
  return (
    <div className={styles.result} role="status">
      <strong>Link published.</strong> {expiryText(share.expiresAt, formatDateTime)}; revoke it below or in
      Settings → Shared links.
      <div className={styles.redactRow}>
        <input
          ref={input}
          type="text"
          readOnly
          value={url}
          aria-label="Share link"
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="btn btn-small" onClick={() => void copy()}>
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
        <a className="btn btn-small" href={url} target="_blank" rel="noreferrer">
          Open
        </a>
      </div>
      {copied === "failed" ? (
        <span className={styles.error} role="alert">
          Could not copy (the browser refused the clipboard). The link is selected: press Ctrl+C (⌘C) to copy
          it.
        </span>
      ) : null}
    </div>
  );
}
