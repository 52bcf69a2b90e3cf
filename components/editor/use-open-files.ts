"use client";

import { useCallback, useEffect, useMemo, useReducer, useRef } from "react";
import { ApiError, describeError, type FileResponse, readFile, writeFile } from "@/components/api-client";
import {
  initialOpenFiles,
  isDirty,
  movedPath,
  type OpenFile,
  type RevealTarget,
  reduceOpenFiles,
} from "./open-files";
import { loadTabs, saveTabs } from "./tab-memory";

export interface OpenFilesApi {
  files: OpenFile[];
  active: OpenFile | null;
  /** Where the editor should put the cursor (set by `open` with a position). */
  reveal: RevealTarget | undefined;
  /** Opens (or activates) a tab; with `at`, puts the cursor on that 1-based line and column once loaded. */
  open(path: string, at?: { line: number; column: number }): void;
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
  /**
   * `from` (a file, or a folder: every tab below it) was moved to `to`: the tabs follow with their buffers,
   * unsaved edits included (taken from the live editor).
   */
  move(from: string, to: string): void;
  /**
   * Re-reads every open file (after the change feed saw a change made elsewhere): a clean tab takes the new
   * content, a tab with unsaved edits gets the "changed elsewhere" notice, a deleted file is flagged. Never
   * overwrites unsaved edits.
   */
  syncFromServer(): Promise<void>;
}

let revisions = 0;

/** Where open files are read from and saved to (paths relative to the tree's root). */
export interface FileIo {
  read(path: string): Promise<FileResponse>;
  write(path: string, content: string): Promise<{ path: string; size: number }>;
}

/** The browser's storage, or null (server rendering, storage disabled). */
function browserStorage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Open files of one project (GET/PUT `/api/projects/:id/file`) or of another tree given as a
 * {@link FileIo} (keep its identity stable, e.g. a module constant). A project's tabs are remembered in the browser
 * (components/editor/tab-memory.ts) and reopened on the next load; a remembered file that is gone is not reopened.
 */
export function useOpenFiles(source: string | FileIo): OpenFilesApi {
  const [state, dispatch] = useReducer(reduceOpenFiles, initialOpenFiles);
  const stateRef = useRef(state);
  stateRef.current = state;
  const seq = useRef(new Map<string, number>());
  /** Remembered tabs being reopened: one whose file is gone (404) closes instead of showing an error. */
  const reopening = useRef(new Set<string>());
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
        if (seq.current.get(path) !== n) return;
        if (reopening.current.has(path) && err instanceof ApiError && err.status === 404)
          dispatch({ type: "close", path });
        else dispatch({ type: "load_failed", path, error: describeError(err) });
      } finally {
        reopening.current.delete(path);
      }
    },
    [io],
  );

  const open = useCallback(
    (path: string, at?: { line: number; column: number }) => {
      const already = stateRef.current.files.some((f) => f.path === path);
      dispatch({ type: "open", path });
      if (at) dispatch({ type: "reveal", target: { path, ...at, seq: ++revisions } });
      if (!already) void load(path);
    },
    [load],
  );

  const move = useCallback(
    (from: string, to: string) => {
      for (const f of stateRef.current.files) {
        if (f.path !== from && !f.path.startsWith(`${from}/`)) continue;
        const live = buffers.current.get(f.path)?.();
        if (f.status === "ready" && live !== undefined && live !== f.content)
          dispatch({ type: "edit", path: f.path, content: live });
      }
      const firstRevision = revisions + 1;
      revisions += stateRef.current.files.length;
      dispatch({ type: "moved", from, to, firstRevision });
      for (const f of stateRef.current.files) {
        const moved = f.status !== "ready" ? movedPath(f.path, from, to) : null;
        if (moved) void load(moved);
      }
    },
    [load],
  );

  const syncFromServer = useCallback(async () => {
    await Promise.all(
      stateRef.current.files
        .filter((f) => f.status === "ready" && !f.saving)
        .map(async (f) => {
          try {
            const file = await io.read(f.path);
            dispatch({ type: "server_content", file: { ...file, path: f.path }, revision: ++revisions });
          } catch (err) {
            if (err instanceof ApiError && err.status === 404)
              dispatch({
                type: "server_gone",
                path: f.path,
                message: `${f.path} was deleted or moved elsewhere (another tab, the agent or a command). Close this tab, or open the file from the tree.`,
              });
            // Other failures (offline, 503): the next change or a reload tries again; the tree pane says polling failed.
          }
        }),
    );
  }, [io]);

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

  const projectId = typeof source === "string" ? source : null;
  const restored = useRef<string | null>(null);
  useEffect(() => {
    if (!projectId || restored.current === projectId) return;
    restored.current = projectId;
    const tabs = loadTabs(browserStorage(), projectId);
    for (const path of tabs.paths) {
      reopening.current.add(path);
      open(path);
    }
    if (tabs.active) dispatch({ type: "activate", path: tabs.active });
  }, [projectId, open]);
  const tabPaths = state.files.map((f) => f.path).join("\n");
  useEffect(() => {
    // Not before this project's tabs were reopened (the first render has none yet).
    if (!projectId || restored.current !== projectId) return;
    saveTabs(browserStorage(), projectId, {
      paths: tabPaths ? tabPaths.split("\n") : [],
      active: state.active,
    });
  }, [projectId, tabPaths, state.active]);

  const active = useMemo(() => state.files.find((f) => f.path === state.active) ?? null, [state]);

  return {
    files: state.files,
    active,
    reveal: state.reveal,
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
    move,
    syncFromServer,
  };
}
