"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { describeError } from "@/components/api-client";
import {
  type ChangesQuery,
  type FileChange,
  type FileTexts,
  getChanges,
} from "@/components/chat/checkpoints-client";

/** A request's state: loading, failed (with the message), or its data. */
export type Loaded<T> =
  | { status: "loading" }
  | { status: "error"; error: string }
  | { status: "ready"; data: T };

/** The diff view's data: the changed files, the selected one and its texts, with retries. */
export interface DiffApi {
  files: Loaded<FileChange[]>;
  selected: string | null;
  select(path: string): void;
  texts: Loaded<FileTexts> | null;
  /** Load again what failed (the list, or the selected file's texts). */
  retry(): void;
}

/**
 * Loads the files changed for `query` (with `initialPath`'s texts in the same request when given, else the first
 * file's next), then the texts of each file selected.
 */
export function useDiff(sessionId: string, query: ChangesQuery, initialPath?: string): DiffApi {
  const [files, setFiles] = useState<Loaded<FileChange[]>>({ status: "loading" });
  const [selected, setSelected] = useState<string | null>(initialPath ?? null);
  // The texts loaded (or loading, or failed) and for which path: another path's do not show while the next load.
  const [loaded, setLoaded] = useState<{ path: string; value: Loaded<FileTexts> } | null>(null);
  const [listSeq, setListSeq] = useState(0);
  const [textSeq, setTextSeq] = useState(0);
  const cache = useRef(new Map<string, FileTexts>());
  const key = JSON.stringify(query);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `query`; `listSeq` is the retry
  useEffect(() => {
    const ctrl = new AbortController();
    setFiles({ status: "loading" });
    getChanges(sessionId, query, initialPath, ctrl.signal).then(
      (set) => {
        if (set.file) cache.current.set(set.file.path, set.file);
        setFiles({ status: "ready", data: set.files });
        setSelected((s) => (s && set.files.some((f) => f.path === s) ? s : (set.files[0]?.path ?? null)));
      },
      (err) => {
        if (!ctrl.signal.aborted) setFiles({ status: "error", error: describeError(err) });
      },
    );
    return () => ctrl.abort();
  }, [sessionId, key, initialPath, listSeq]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `query`; `textSeq` is the retry
  useEffect(() => {
    if (!selected || files.status !== "ready") return;
    const path = selected;
    const setTexts = (value: Loaded<FileTexts>) => setLoaded({ path, value });
    const known = cache.current.get(path);
    if (known) {
      setTexts({ status: "ready", data: known });
      return;
    }
    const ctrl = new AbortController();
    setTexts({ status: "loading" });
    getChanges(sessionId, query, path, ctrl.signal).then(
      (set) => {
        if (!set.file) return setTexts({ status: "error", error: `No texts came back for ${path}.` });
        cache.current.set(path, set.file);
        setTexts({ status: "ready", data: set.file });
      },
      (err) => {
        if (!ctrl.signal.aborted) setTexts({ status: "error", error: describeError(err) });
      },
    );
    return () => ctrl.abort();
  }, [sessionId, key, selected, files.status, textSeq]);

  const retry = useCallback(() => {
    if (files.status === "error") setListSeq((n) => n + 1);
    else setTextSeq((n) => n + 1);
  }, [files.status]);

  const texts = !selected ? null : loaded?.path === selected ? loaded.value : { status: "loading" as const };
  return { files, selected, select: setSelected, texts, retry };
}
