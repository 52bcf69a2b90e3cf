"use client";

import { type ReactNode, useState } from "react";
import styles from "./inspector.module.css";
import { matchesFilter, searchableText } from "./view-model";

/** One item of a layer: a one-line head and, expanded, its detail (usually the JSON). */
export interface LayerItem {
  key: string;
  /** Anchor id (e.g. `insp-agent-3`), so another layer can link to it. */
  anchor?: string;
  head: ReactNode;
  body?: ReactNode;
  /** What the filter searches (see `searchableText`). */
  search: string;
  /** Marked (e.g. a compaction boundary before it). */
  marker?: ReactNode;
  tone?: "warn" | "muted";
}

/**
 * A layer column: a numbered title with its item count (`3 of 12` while filtered), Expand all / Collapse all, and
 * its items as disclosure rows (`<details>`), those not matching `filter` hidden. `extra` renders above the items.
 */
export function Layer({
  n,
  title,
  hint,
  items,
  filter,
  empty,
  extra,
  active,
  id,
  count,
}: {
  n: number | string;
  title: string;
  hint?: string;
  items: LayerItem[];
  filter: string;
  /** Shown when there is no item; null: nothing (the layer's `extra` says it all). */
  empty: ReactNode | null;
  extra?: ReactNode;
  /** Shown in the narrow (tabbed) layout. */
  active: boolean;
  id: string;
  /** Shown instead of the item count (e.g. the payload's size). */
  count?: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const shown = items.filter((i) => matchesFilter(filter, i.search));
  const filtering = filter.trim() !== "";
  return (
    <section
      className={styles.layer}
      data-active={active ? "true" : "false"}
      aria-label={`Layer ${n}: ${title}`}
      id={id}
      role="tabpanel"
    >
      <header className={styles.layerHead}>
        <h3>
          <span className={styles.layerNo}>{n}</span> {title}
        </h3>
        {count === undefined ? (
          <span className="muted">{filtering ? `${shown.length} of ${items.length}` : items.length}</span>
        ) : (
          <span className="muted">{count}</span>
        )}
        {items.some((i) => i.body !== undefined) ? (
          <button type="button" className="btn btn-small" onClick={() => setExpanded((e) => !e)}>
            {expanded ? "Collapse all" : "Expand all"}
          </button>
        ) : null}
      </header>
      {hint ? <p className={`muted ${styles.hint}`}>{hint}</p> : null}
      {extra}
      {items.length === 0 ? (
        empty === null ? null : (
          <p className="muted">{empty}</p>
        )
      ) : shown.length === 0 ? (
        <p className="muted">Nothing here matches “{filter.trim()}”.</p>
      ) : (
        <ol className={styles.items}>
          {shown.map((item) => (
            <li key={item.key} id={item.anchor} className={item.tone ? styles[item.tone] : undefined}>
              {item.marker}
              {item.body === undefined ? (
                <div className={styles.itemHead}>{item.head}</div>
              ) : (
                <details key={`${expanded}:${filtering}`} open={expanded || filtering}>
                  <summary className={styles.itemHead}>{item.head}</summary>
                  <div className={styles.itemBody}>{item.body}</div>
                </details>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Pretty JSON of `value` in a scrollable block. */
export function JsonBlock({ value }: { value: unknown }) {
  return <pre className={styles.json}>{JSON.stringify(value, null, 2)}</pre>;
}

/** A button copying `text` to the clipboard; says `Copied` or why it could not. */
export function CopyButton({ label, text }: { label: string; text: string }) {
  const [state, setState] = useState<"idle" | "copied" | string>("idle");
  return (
    <span className={styles.copy}>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            (err: unknown) =>
              setState(
                `Could not copy (${err instanceof Error ? err.message : String(err)}): select the text and copy it by hand.`,
              ),
          );
        }}
      >
        {label}
      </button>
      {state === "copied" ? (
        <span className="muted" role="status">
          Copied
        </span>
      ) : state !== "idle" ? (
        <span className={styles.error} role="alert">
          {state}
        </span>
      ) : null}
    </span>
  );
}

/** The `searchableText` of a list of values (re-exported for the layers). */
export const searchOf = searchableText;
