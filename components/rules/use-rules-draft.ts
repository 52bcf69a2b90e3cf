"use client";

import { useCallback, useMemo, useRef, useState } from "react";
import { describeError } from "@/components/api-client";
import { type DraftChange, readRulesFile } from "./rules-api";

/** One rules file as the editor holds it. */
export interface DraftFile {
  path: string;
  status: "loading" | "ready" | "error";
  /** The content on the server; null = the file does not exist there yet (a new file of the draft). */
  saved: string | null;
  /** The editor buffer. */
  content: string;
  /** Marked for deletion in the draft. */
  deleted: boolean;
  /** Bumped whenever content comes from outside the editor (load, discard); see MonacoEditor. */
  revision: number;
  error: string | null;
  binary: boolean;
}

/** Whether `f` differs from the server: edited, new, or marked for deletion. */
export function isChanged(f: DraftFile): boolean {
  if (f.status !== "ready" || f.binary) return false;
  if (f.deleted) return f.saved !== null;
  return f.saved === null || f.content !== f.saved;
}

// Starts far from the IDE's own counter so a revision never repeats across editors.
let revisions = 1_000_000_000;

/**
 * The rules editor's buffers: every file opened or created stays in memory (so switching files, or a failed save
 * or proposal, never loses typed text) until it is committed or discarded.
 */
export function useRulesDraft(workspaceId: string) {
  const [files, setFiles] = useState<Record<string, DraftFile>>({});
  const [active, setActive] = useState<string | null>(null);
  const ref = useRef(files);
  ref.current = files;

  const put = useCallback((path: string, fn: (f: DraftFile | undefined) => DraftFile | undefined) => {
    setFiles((prev) => {
      const next = { ...prev };
      const value = fn(prev[path]);
      if (value) next[path] = value;
      else delete next[path];
      return next;
    });
  }, []);

  const load = useCallback(
    async (path: string) => {
      put(path, (f) => ({ ...(f ?? blank(path)), status: "loading", error: null }));
      try {
        const r = await readRulesFile(workspaceId, path);
        const text = r.content ?? "";
        put(path, (f) => ({
          ...(f ?? blank(path)),
          status: "ready",
          saved: text,
          content: text,
          deleted: false,
          binary: r.binary === true || r.content === null,
          revision: ++revisions,
          error: null,
        }));
      } catch (err) {
        put(path, (f) => ({ ...(f ?? blank(path)), status: "error", error: describeError(err) }));
      }
    },
    [workspaceId, put],
  );

  /** Select `path`, loading it from the server the first time. */
  const open = useCallback(
    (path: string) => {
      setActive(path);
      if (!ref.current[path]) void load(path);
    },
    [load],
  );

  /** Start a new file of the draft (or select it if it is open already). */
  const create = useCallback(
    (path: string) => {
      setActive(path);
      put(path, (f) => f ?? { ...blank(path), status: "ready", saved: null, revision: ++revisions });
    },
    [put],
  );

  const edit = useCallback(
    (path: string, content: string) => put(path, (f) => (f && f.content !== content ? { ...f, content } : f)),
    [put],
  );

  const toggleDeleted = useCallback(
    (path: string) => put(path, (f) => (f ? { ...f, deleted: !f.deleted } : f)),
    [put],
  );

  /** Back to the server's content (a new file leaves the draft). */
  const discard = useCallback(
    (path: string) => {
      const f = ref.current[path];
      if (f?.saved === null) {
        put(path, () => undefined);
        setActive((a) => (a === path ? null : a));
      } else {
        put(path, (x) => (x ? { ...x, content: x.saved ?? "", deleted: false, revision: ++revisions } : x));
      }
    },
    [put],
  );

  /** The server now holds `content` at `path` (null: the file was deleted). */
  const committed = useCallback(
    (path: string, content: string | null) => {
      if (content === null) {
        put(path, () => undefined);
        setActive((a) => (a === path ? null : a));
      } else put(path, (f) => (f ? { ...f, saved: content, deleted: false } : f));
    },
    [put],
  );

  /** Forget every buffer (after a proposal took the draft). */
  const clear = useCallback(() => {
    setFiles({});
    setActive(null);
  }, []);

  const changed = useMemo(
    () =>
      Object.values(files)
        .filter(isChanged)
        .sort((a, b) => a.path.localeCompare(b.path)),
    [files],
  );
  const changes = useMemo<DraftChange[]>(
    () => changed.map((f) => ({ path: f.path, content: f.deleted ? null : f.content })),
    [changed],
  );

  return {
    files,
    active: active ? (files[active] ?? null) : null,
    activePath: active,
    changed,
    changes,
    open,
    create,
    edit,
    toggleDeleted,
    discard,
    committed,
    clear,
    reload: load,
  };
}

function blank(path: string): DraftFile {
  return {
    path,
    status: "loading",
    saved: null,
    content: "",
    deleted: false,
    revision: 0,
    error: null,
    binary: false,
  };
}
