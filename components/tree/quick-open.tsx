"use client";

import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import type { TreeEntry } from "@/components/api-client";
import { type FuzzyMatch, fuzzyFilter, highlightRuns } from "./fuzzy";
import styles from "./quick-open.module.css";

/** Results shown at most. */
const LIMIT = 50;

function Highlighted({ text, positions, offset }: { text: string; positions: number[]; offset: number }) {
  return (
    <>
      {highlightRuns(text, positions, offset).map(([run, hit], i) =>
        hit ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional and never reordered
          <mark key={i} className={styles.hit}>
            {run}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional and never reordered
          <span key={i}>{run}</span>
        ),
      )}
    </>
  );
}

function Option({
  id,
  match,
  selected,
  onPick,
}: {
  id: string;
  match: FuzzyMatch;
  selected: boolean;
  onPick: () => void;
}) {
  const slash = match.path.lastIndexOf("/");
  const name = match.path.slice(slash + 1);
  const dir = slash > 0 ? match.path.slice(0, slash) : "";
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      aria-label={match.path}
      className={styles.option}
      data-path={match.path}
      tabIndex={-1}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onPick}
      onKeyDown={() => {}}
    >
      <span className={styles.name}>
        <Highlighted text={name} positions={match.positions} offset={slash + 1} />
      </span>
      {dir ? (
        <span className={styles.dir}>
          <Highlighted text={dir} positions={match.positions} offset={0} />
        </span>
      ) : null}
    </div>
  );
}

/**
 * Quick open (Ctrl+P / Cmd+P): a fuzzy finder over the project's file names (client-side, over the tree's
 * entries; `fuzzyFilter`: consecutive and file-name matches first). Up/Down choose, Enter opens, Escape or a
 * click outside closes; the matched characters are highlighted. No focus trap (`useFocusTrap`): its one tabbable
 * control is the input, and focus leaving it (Tab, a click elsewhere) closes the finder, so focus is never behind it.
 */
export function QuickOpen({
  entries,
  onOpen,
  onClose,
}: {
  entries: readonly TreeEntry[];
  onOpen: (path: string) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState("");
  const [index, setIndex] = useState(0);
  const listId = useId();
  const list = useRef<HTMLDivElement>(null);
  const paths = useMemo(() => entries.filter((e) => e.kind !== "dir").map((e) => e.path), [entries]);
  const matches = useMemo(() => fuzzyFilter(query, paths, LIMIT), [query, paths]);
  const current = Math.min(index, Math.max(0, matches.length - 1));

  useEffect(() => {
    list.current?.querySelector(`[aria-selected="true"]`)?.scrollIntoView({ block: "nearest" });
  });

  const pick = (path: string | undefined) => {
    if (!path) return;
    onClose();
    onOpen(path);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      onClose();
    } else if (e.key === "ArrowDown") {
      e.preventDefault();
      setIndex(matches.length ? (current + 1) % matches.length : 0);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setIndex(matches.length ? (current - 1 + matches.length) % matches.length : 0);
    } else if (e.key === "Enter") {
      e.preventDefault();
      pick(matches[current]?.path);
    }
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop's click closes; the dialog has the keyboard
    <div className={styles.backdrop} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className={styles.dialog} role="dialog" aria-modal="true" aria-label="Go to file">
        <input
          // biome-ignore lint/a11y/noAutofocus: the finder exists to be typed into
          autoFocus
          type="text"
          className={styles.input}
          role="combobox"
          aria-label="File name"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={matches[current] ? `${listId}-${current}` : undefined}
          aria-autocomplete="list"
          placeholder="Type a file name (fuzzy: “usefi” finds use-open-files.ts)"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setIndex(0);
          }}
          onKeyDown={onKeyDown}
          onBlur={onClose}
        />
        {matches.length > 0 ? (
          <div id={listId} ref={list} role="listbox" aria-label="Matching files" className={styles.list}>
            {matches.map((m, i) => (
              <Option
                key={m.path}
                id={`${listId}-${i}`}
                match={m}
                selected={i === current}
                onPick={() => pick(m.path)}
              />
            ))}
          </div>
        ) : (
          <p className={styles.empty}>
            {paths.length === 0 ? "The project has no files yet." : `No file name matches “${query}”.`}
          </p>
        )}
      </div>
    </div>
  );
}
