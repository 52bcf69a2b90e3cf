"use client";

import { useCallback, useMemo, useReducer, useRef } from "react";
import { describeError, type FileResponse, readFile, writeFile } from "@/components/api-client";
import { initialOpenFiles, isDirty, type OpenFile, reduceOpenFiles } from "./open-files";

export interface OpenFilesApi {
  files: OpenFile[];
  active: OpenFile | null;
  open(path: string): void;
  activate(path: string): void;
  close(path: string): void;
  edit(path: string, content: string): void;
  /**
   * Saves the file's live buffer (see {@link OpenFilesApi.bindBuffer}; the last `edit` when no
   * editor is bound): the PUT carries exactly what the editor shows at the moment of the call.
   */
  save(path: string): Promise<void>;
  /**
   * Binds a reader of `path`'s live editor buffer (e.g. the Monaco model's value); returns the
   * unbind. A reader answering `undefined` falls back to the last `edit`.
   */
  bindBuffer(path: string, read: () => string | undefined): () => void;
  reload(path: string): void;
  keepMine(path: string): void;
  /** The agent changed these project paths: reload clean buffers, flag dirty ones. */
  notifyChanged(paths: string[]): void;
  /**
   * The unsaved buffers (path, the editor's live text) of open files: what a restore keeps before it changes files
   * (docs/checkpoints.md).
   */
  unsavedBuffers(): { path: string; content: string }[];
  /** Re-read these open files from the server, dropping their buffers (a restore kept them in a commit). */
  reloadFromServer(paths: string[]): void;
}

let revisions = 0;

/** Where open files are read from and saved to (paths relative to the tree's root). */
export interface FileIo {
  read(path: string): Promise<FileResponse>;
  write(path: string, content: string): Promise<{ path: string; size: number }>;
}

/**
 * Open files of one project (GET/PUT `/api/projects/:id/file`) or of another tree given as a
 * {@link FileIo} (keep its identity stable, e.g. a module constant).
 */
export function useOpenFiles(source: string | FileIo): OpenFilesApi {
  const [state, dispatch] = useReducer(reduceOpenFiles, initialOpenFiles);
  const stateRef = useRef(state);
  stateRef.current = state;
  const seq = useRef(new Map<string, number>());
  const buffers = useRef(new Map<string, () => string | undefined>());
  const io = useMemo<FileIo>(
    () =>
      typeof source === "string"
        ? {
            read: (path) => readFile(source, path),
            write: (path, content) => writeFile(source, path, content),
          }
        : source,
    [source],
  );

  const load = useCallback(
    async (path: string) => {
      const n = (seq.current.get(path) ?? 0) + 1;
      seq.current.set(path, n);
      dispatch({ type: "loading", path });
      try {
        const file = await io.read(path);
        if (seq.current.get(path) === n)
          dispatch({ type: "loaded", file: { ...file, path }, revision: ++revisions });
      } catch (err) {
        if (seq.current.get(path) === n) dispatch({ type: "load_failed", path, error: describeError(err) });
      }
    },
    [io],
  );

  const open = useCallback(
    (path: string) => {
      const already = stateRef.current.files.some((f) => f.path === path);
      dispatch({ type: "open", path });
      if (!already) void load(path);
    },
    [load],
  );

  const save = useCallback(
    async (path: string) => {
      const f = stateRef.current.files.find((x) => x.path === path);
      if (f?.status !== "ready" || f.binary || f.tooLarge || f.saving) return;
      // The model, not `f.content`: state is a render behind a keystroke or paste just made.
      const content = buffers.current.get(path)?.() ?? f.content;
      if (content !== f.content) dispatch({ type: "edit", path, content });
      dispatch({ type: "saving", path });
      try {
        const res = await io.write(path, content);
        dispatch({ type: "saved", path, content, size: res.size });
      } catch (err) {
        dispatch({ type: "save_failed", path, error: describeError(err) });
      }
    },
    [io],
  );

  const bindBuffer = useCallback((path: string, read: () => string | undefined) => {
    buffers.current.set(path, read);
    return () => {
      if (buffers.current.get(path) === read) buffers.current.delete(path);
    };
  }, []);

  const notifyChanged = useCallback(
    (paths: string[]) => {
      const changed = new Set(paths);
      for (const f of stateRef.current.files) {
        if (!changed.has(f.path)) continue;
        if (isDirty(f)) dispatch({ type: "server_changed", path: f.path });
        else void load(f.path);
      }
    },
    [load],
  );

  const unsavedBuffers = useCallback(
    () =>
      stateRef.current.files
        .filter((f) => f.status === "ready" && !f.binary && !f.tooLarge)
        // The live model, not `f.content`: state is a render behind the last keystroke.
        .map((f) => ({ path: f.path, content: buffers.current.get(f.path)?.() ?? f.content, saved: f.saved }))
        .filter((b) => b.content !== b.saved)
        .map(({ path, content }) => ({ path, content })),
    [],
  );
  const reloadFromServer = useCallback(
    (paths: string[]) => {
      const wanted = new Set(paths);
      for (const f of stateRef.current.files) if (wanted.has(f.path)) void load(f.path);
    },
    [load],
  );

  const active = useMemo(() => state.files.find((f) => f.path === state.active) ?? null, [state]);

  return {
    files: state.files,
    active,
    open,
    activate: useCallback((path: string) => dispatch({ type: "activate", path }), []),
    close: useCallback((path: string) => dispatch({ type: "close", path }), []),
    edit: useCallback((path: string, content: string) => dispatch({ type: "edit", path, content }), []),
    save,
    bindBuffer,
    reload: load,
    keepMine: useCallback((path: string) => dispatch({ type: "keep_mine", path }), []),
    notifyChanged,
    unsavedBuffers,
    reloadFromServer,
  };
}
