"use client";

import { useEffect, useRef, useState } from "react";
import { ApiError, describeError } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { type SearchHit, type SearchResult, searchProjectFiles } from "./entries-api";
import styles from "./quick-open.module.css";

/** Typing pauses this long before a search starts, ms. */
const DEBOUNCE_MS = 300;

function HitText({ hit }: { hit: SearchHit }) {
  const parts: { text: string; match: boolean }[] = [];
  let at = 0;
  for (const [start, end] of hit.ranges) {
    if (start > at) parts.push({ text: hit.text.slice(at, start), match: false });
    if (end > start) parts.push({ text: hit.text.slice(start, end), match: true });
    at = Math.max(at, end);
  }
  if (at < hit.text.length) parts.push({ text: hit.text.slice(at), match: false });
  return (
    <span className={styles.hitText}>
      {parts.map((p, i) =>
        p.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: positional parts of one line, never reordered
          <mark key={i} className={styles.match}>
            {p.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: positional parts of one line, never reordered
          <span key={i}>{p.text}</span>
        ),
      )}
    </span>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The Search panel (Ctrl+Shift+F): searches the project's files as the agent's grep does (`.gitignore`
 * respected) as you type, with `.*` (regular expression) and `Aa` (match case) toggles; results are grouped by
 * file (collapsible), matches highlighted; a hit opens its file at that line. A capped search and an invalid
 * pattern are said above the results. `focusSeq` changing focuses (and selects) the query field.
 */
export function SearchPanel({
  projectId,
  focusSeq,
  onOpenAt,
}: {
  projectId: string;
  focusSeq: number;
  onOpenAt: (path: string, line: number, column: number) => void;
}) {
  const [query, setQuery] = useState("");
  const [regex, setRegex] = useState(false);
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [result, setResult] = useState<SearchResult | null>(null);
  const [error, setError] = useState<{ title: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const input = useRef<HTMLInputElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focusSeq is the trigger
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusSeq]);

  useEffect(() => {
    if (query === "") {
      setResult(null);
      setError(null);
      setBusy(false);
      return;
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      setBusy(true);
      searchProjectFiles(projectId, { q: query, regex, caseSensitive }, ctrl.signal).then(
        (r) => {
          setResult(r);
          setError(null);
          setCollapsed(new Set());
          setBusy(false);
        },
        (err) => {
          if (ctrl.signal.aborted) return;
          setResult(null);
          setError(
            err instanceof ApiError && err.code === "invalid_regex"
              ? {
                  title: "Invalid regular expression",
                  message: `${err.message}. Fix the pattern, or turn off .* to search for the text as typed.`,
                }
              : { title: "Search failed", message: describeError(err) },
          );
          setBusy(false);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [projectId, query, regex, caseSensitive]);

  const toggle = (path: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  return (
    <section className={styles.searchPane} aria-label="Search">
      <form className={styles.searchForm} aria-label="Search in files" onSubmit={(e) => e.preventDefault()}>
        <input
          ref={input}
          type="text"
          aria-label="Search in files"
          placeholder="Search in files"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button
          type="button"
          className={`btn btn-small ${styles.toggle}`}
          aria-pressed={regex}
          aria-label="Use regular expression"
          title="Use regular expression (JavaScript syntax, as the agent's grep)"
          onClick={() => setRegex((v) => !v)}
        >
          .*
        </button>
        <button
          type="button"
          className={`btn btn-small ${styles.toggle}`}
          aria-pressed={caseSensitive}
          aria-label="Match case"
          title="Match case"
          onClick={() => setCaseSensitive((v) => !v)}
        >
          Aa
        </button>
      </form>
      {error ? (
        <div className={styles.live}>
          <Notice kind="error" title={error.title}>
            {error.message}
          </Notice>
        </div>
      ) : null}
      {busy ? <Spinner label="Searching" /> : null}
      {result && !busy ? (
        <p className={styles.summary} role="status">
          {result.matches === 0
            ? `No results in ${plural(result.searched, "file", "files")}.`
            : `${plural(result.matches, "matching line", "matching lines")} in ${plural(result.files.length, "file", "files")}`}
        </p>
      ) : null}
      {result?.capped ? (
        <div className={styles.live}>
          <Notice kind="warning" title="Results capped">
            {result.capped.message}
          </Notice>
        </div>
      ) : null}
      {result ? (
        <div className={styles.results}>
          {result.files.map((file) => {
            const slash = file.path.lastIndexOf("/");
            const open = !collapsed.has(file.path);
            return (
              <fieldset key={file.path} className={styles.group} aria-label={file.path}>
                <button
                  type="button"
                  className={styles.fileHead}
                  aria-expanded={open}
                  title={file.path}
                  onClick={() => toggle(file.path)}
                >
                  <span aria-hidden="true">{open ? "▾" : "▸"}</span>
                  <span className={styles.fileName}>{file.path.slice(slash + 1)}</span>
                  <span className={styles.fileDir}>{slash > 0 ? file.path.slice(0, slash) : ""}</span>
                  <span className={styles.count}>{file.hits.length}</span>
                </button>
                {open
                  ? file.hits.map((hit) => (
                      <button
                        key={hit.line}
                        type="button"
                        className={styles.hitRow}
                        title={`${file.path}:${hit.line}`}
                        onClick={() => onOpenAt(file.path, hit.line, hit.column)}
                      >
                        <span className={styles.lineNo}>{hit.line}</span>
                        <HitText hit={hit} />
                      </button>
                    ))
                  : null}
              </fieldset>
            );
          })}
        </div>
      ) : null}
    </section>
  );
}
