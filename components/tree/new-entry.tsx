"use client";

import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import type { TreeEntry } from "@/components/api-client";
import { describeError } from "@/components/api-client";
import { checkNewEntryPath } from "@/lib/projects/new-entry-path";

/** What "New file" / "New folder" creates. */
export type NewEntryKind = "file" | "dir";

/**
 * The inline form of the tree's New file / New folder: one path input (relative to the tree's root, `/` between
 * folders, prefilled with the folder of the open file), Create and Cancel. The path is checked on Create
 * (`checkNewEntryPath`: empty, `..`/leading `/`, `.git`, an existing name, a file as parent) and the exact
 * error is shown under the input; a server refusal is shown the same way. Escape or Cancel closes it.
 */
export function NewEntryForm({
  kind,
  value,
  busy,
  error,
  onChange,
  onSubmit,
  onCancel,
}: {
  kind: NewEntryKind;
  value: string;
  busy: boolean;
  error: string | null;
  onChange: (value: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const label = kind === "dir" ? "New folder" : "New file";
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape" && !busy) {
      e.preventDefault();
      onCancel();
    }
  };
  return (
    <form
      className="new-file tree-new-entry"
      aria-label={label}
      onKeyDown={onKeyDown}
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy) onSubmit();
      }}
    >
      <input
        ref={input}
        type="text"
        aria-label={kind === "dir" ? "New folder name" : "New file name"}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={kind === "dir" ? "New folder, e.g. src/lib" : "New file, e.g. src/a.ts"}
        value={value}
        disabled={busy}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p id={errorId} className="delete-error tree-new-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="tree-new-actions">
        <button type="button" className="btn btn-small" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
          {busy ? "Creating…" : "Create"}
        </button>
      </div>
    </form>
  );
}

/** The folder part of `path` with a trailing `/` (`src/a.ts` → `src/`), or "" at the root. */
export function folderPrefix(path: string | null | undefined): string {
  const slash = path ? path.lastIndexOf("/") : -1;
  return path && slash > 0 ? path.slice(0, slash + 1) : "";
}

/**
 * New file / New folder for a tree: `start(kind, prefill)` opens the inline form (`form`, render it above the
 * tree); Create checks the path against `entries`, calls `create(path, kind)` and then `onCreated` (refresh the
 * tree; open a new file in the editor). While creating, the form is disabled; a failure keeps it open with the
 * message, so the typed name is never lost.
 */
export function useTreeCreate(
  entries: readonly TreeEntry[] | null,
  create: (path: string, kind: NewEntryKind) => Promise<unknown>,
  onCreated: (created: { path: string; kind: NewEntryKind }) => void | Promise<void>,
): { start: (kind: NewEntryKind, prefill?: string) => void; form: ReactNode } {
  const [kind, setKind] = useState<NewEntryKind | null>(null);
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = useCallback((k: NewEntryKind, prefill = "") => {
    setKind(k);
    setValue(prefill);
    setError(null);
  }, []);
  const submit = async () => {
    if (!kind) return;
    const checked = checkNewEntryPath(value, entries ?? []);
    if ("error" in checked) {
      setError(checked.error);
      return;
    }
    setBusy(true);
    try {
      await create(checked.path, kind);
      setKind(null);
      setValue("");
      setError(null);
      await onCreated({ path: checked.path, kind });
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  const form = kind ? (
    <NewEntryForm
      key={kind}
      kind={kind}
      value={value}
      busy={busy}
      error={error}
      onChange={(v) => {
        setValue(v);
        setError(null);
      }}
      onSubmit={() => void submit()}
      onCancel={() => setKind(null)}
    />
  ) : null;
  return { start, form };
}
