"use client";

import { type FormEvent, useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import styles from "./rules.module.css";
import { changeDate, type RulesFile } from "./rules-api";
import { cleanNewRulesPath } from "./rules-paths";
import { type DraftFile, isChanged } from "./use-rules-draft";

/** "changed by Ana · Dec 1, 2026, 3:04 PM", or "" when unknown. */
export function changeLine(file: RulesFile | undefined): string {
  const c = file?.lastChange;
  if (!c) return "";
  return `changed by ${c.authorName || c.authorEmail} · ${formatDateTime(changeDate(c.timestamp).toISOString())}`;
}

/**
 * The rules root's files with who last changed each, plus the draft's new files; a form to start a new file
 * (`canCreate`: members and above).
 */
export function RulesFileList({
  files,
  draft,
  selected,
  canCreate,
  onOpen,
  onCreate,
}: {
  files: RulesFile[];
  draft: Record<string, DraftFile>;
  selected: string | null;
  canCreate: boolean;
  onOpen: (path: string) => void;
  onCreate: (path: string) => void;
}) {
  const [newPath, setNewPath] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const onServer = new Set(files.map((f) => f.path));
  const newOnes = Object.values(draft)
    .filter((d) => d.saved === null && !onServer.has(d.path))
    .map((d) => d.path)
    .sort();
  const rows: { path: string; file?: RulesFile }[] = [
    ...files.map((f) => ({ path: f.path, file: f })),
    ...newOnes.map((path) => ({ path })),
  ].sort((a, b) => a.path.localeCompare(b.path));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const clean = cleanNewRulesPath(newPath);
    if ("problem" in clean) {
      setProblem(clean.problem);
      return;
    }
    const { path } = clean;
    setProblem(null);
    setNewPath("");
    if (onServer.has(path)) onOpen(path);
    else onCreate(path);
  };

  return (
    <>
      {canCreate ? (
        <form className="new-file" onSubmit={submit}>
          <input
            type="text"
            aria-label="New file path"
            placeholder="skills/review/SKILL.md"
            value={newPath}
            onChange={(e) => {
              setNewPath(e.target.value);
              setProblem(null);
            }}
          />
          <button type="submit" className="btn btn-small" disabled={!newPath.trim()}>
            New file
          </button>
        </form>
      ) : null}
      {problem ? (
        <p className={styles.fieldError} role="alert">
          {problem}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="muted tree-empty">
          No rules yet.{" "}
          {canCreate
            ? "Create AGENTS.md (team instructions), skills/<name>/SKILL.md or prompts/<name>.md."
            : "An owner or admin adds AGENTS.md, skills/ and prompts/ here."}
        </p>
      ) : (
        <ul className={styles.fileList} aria-label="Rules files">
          {rows.map(({ path, file }) => {
            const d = draft[path];
            const changed = d ? isChanged(d) : false;
            const line = file ? changeLine(file) : "new file, not saved yet";
            return (
              <li key={path}>
                <button
                  type="button"
                  className={`${styles.fileRow}${path === selected ? ` ${styles.selected}` : ""}`}
                  aria-current={path === selected ? "true" : undefined}
                  onClick={() => onOpen(path)}
                  title={path}
                >
                  <span className={`mono ${styles.filePath}${d?.deleted ? ` ${styles.struck}` : ""}`}>
                    {path}
                    {changed ? (
                      <span className="dirty-dot" role="img" aria-label="changed in your draft">
                        {" "}
                        ●
                      </span>
                    ) : null}
                  </span>
                  <span className={styles.fileMeta}>{line}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
