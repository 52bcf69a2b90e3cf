/** Pure state of the editor's open files (tabs): buffers, saved content, load/save status. */
import type { FileResponse } from "@/components/api-client";

export type OpenFileStatus = "loading" | "ready" | "error";

export interface OpenFile {
  path: string;
  status: OpenFileStatus;
  /** The editor buffer. */
  content: string;
  /** The content last loaded from or saved to the server. */
  saved: string;
  binary: boolean;
  tooLarge: boolean;
  size: number;
  /** Load error (the file could not be read). */
  error: string | null;
  saveError: string | null;
  saving: boolean;
  /** The file changed on the server (agent, another tab, a command) while the buffer had unsaved edits. */
  serverChanged: boolean;
  /** The file was deleted or moved elsewhere while the buffer had unsaved edits (Save recreates it). */
  serverGone: boolean;
  /** The server's content that raised `serverChanged` (when known): "Keep mine" takes it as the new base. */
  theirs?: string;
  /**
   * Bumped (to a globally unique number) whenever content comes from the server; the editor
   * replaces its buffer only when this changes, never on its own edits.
   */
  revision: number;
}

/** Where the editor should put the cursor of a file (a search hit): applied once per `seq`. */
export interface RevealTarget {
  path: string;
  /** 1-based line and column. */
  line: number;
  column: number;
  seq: number;
}

export interface OpenFilesState {
  files: OpenFile[];
  active: string | null;
  reveal?: RevealTarget;
}

export type OpenFilesAction =
  | { type: "open"; path: string }
  | { type: "activate"; path: string }
  | { type: "close"; path: string }
  | { type: "loading"; path: string }
  | { type: "loaded"; file: FileResponse; revision: number }
  | { type: "load_failed"; path: string; error: string }
  | { type: "edit"; path: string; content: string }
  | { type: "saving"; path: string }
  | { type: "saved"; path: string; content: string; size: number }
  | { type: "save_failed"; path: string; error: string }
  | { type: "server_changed"; path: string }
  | { type: "keep_mine"; path: string }
  /** `firstRevision`: the first of as many fresh revisions as there are open files (one per moved tab). */
  | { type: "moved"; from: string; to: string; firstRevision: number }
  | { type: "server_content"; file: FileResponse; revision: number }
  | { type: "server_gone"; path: string; message: string }
  | { type: "reveal"; target: RevealTarget };

export const initialOpenFiles: OpenFilesState = { files: [], active: null };

export function isDirty(f: OpenFile): boolean {
  return f.status === "ready" && !f.binary && !f.tooLarge && f.content !== f.saved;
}

function blank(path: string): OpenFile {
  return {
    path,
    status: "loading",
    content: "",
    saved: "",
    binary: false,
    tooLarge: false,
    size: 0,
    error: null,
    saveError: null,
    saving: false,
    serverChanged: false,
    serverGone: false,
    revision: 0,
  };
}

/** `path` with the prefix `from` (itself or a folder above it) replaced by `to`, or null when not below it. */
export function movedPath(path: string, from: string, to: string): string | null {
  if (path === from) return to;
  return path.startsWith(`${from}/`) ? `${to}${path.slice(from.length)}` : null;
}

function update(state: OpenFilesState, path: string, fn: (f: OpenFile) => OpenFile): OpenFilesState {
  let changed = false;
  const files = state.files.map((f) => {
    if (f.path !== path) return f;
    const next = fn(f);
    if (next !== f) changed = true;
    return next;
  });
  return changed ? { ...state, files } : state;
}

export function reduceOpenFiles(state: OpenFilesState, action: OpenFilesAction): OpenFilesState {
  switch (action.type) {
    case "open":
      if (state.files.some((f) => f.path === action.path)) return { ...state, active: action.path };
      return { ...state, files: [...state.files, blank(action.path)], active: action.path };
    case "activate":
      return state.files.some((f) => f.path === action.path) ? { ...state, active: action.path } : state;
    case "close": {
      const idx = state.files.findIndex((f) => f.path === action.path);
      if (idx === -1) return state;
      const files = state.files.filter((f) => f.path !== action.path);
      let active = state.active;
      if (active === action.path) active = (files[idx] ?? files[idx - 1])?.path ?? null;
      return { ...state, files, active };
    }
    case "loading":
      return update(state, action.path, (f) => ({
        ...f,
        status: f.status === "ready" ? "ready" : "loading",
      }));
    case "loaded": {
      const r = action.file;
      const text = r.content ?? "";
      return update(state, r.path, (f) => ({
        ...f,
        status: "ready",
        content: text,
        saved: text,
        binary: r.binary,
        tooLarge: r.tooLarge,
        size: r.size,
        error: null,
        saveError: null,
        serverChanged: false,
        serverGone: false,
        revision: action.revision,
      }));
    }
    case "server_content": {
      // A poll's read of an open file: news only when it differs from what the tab last had from the server.
      const r = action.file;
      const text = r.content ?? "";
      return update(state, r.path, (f) => {
        if (f.status !== "ready" || f.saving) return f;
        if (text === f.saved && r.binary === f.binary && r.tooLarge === f.tooLarge && !f.serverGone) return f;
        if (!isDirty(f) || text === f.content)
          return reduceOpenFiles(
            { files: [f], active: null },
            { type: "loaded", file: r, revision: action.revision },
          ).files[0];
        return { ...f, serverChanged: true, serverGone: false, theirs: text };
      });
    }
    case "server_gone":
      return update(state, action.path, (f) => {
        if (f.status !== "ready" || f.saving) return f;
        if (isDirty(f)) return f.serverGone ? f : { ...f, serverGone: true, serverChanged: false };
        return { ...f, status: "error", error: action.message };
      });
    case "moved": {
      // Tabs at or below `from` follow the move; buffers, unsaved edits and saved state are kept. A new revision
      // makes the editor fill the moved path's (new) model with the buffer.
      let changed = false;
      const files = state.files.map((f, i) => {
        const to = movedPath(f.path, action.from, action.to);
        if (to === null || state.files.some((o) => o.path === to)) return f;
        changed = true;
        return { ...f, path: to, revision: action.firstRevision + i };
      });
      if (!changed) return state;
      const active =
        state.active === null ? null : (movedPath(state.active, action.from, action.to) ?? state.active);
      return { ...state, files, active };
    }
    case "reveal":
      return { ...state, reveal: action.target };
    case "load_failed":
      return update(state, action.path, (f) => ({ ...f, status: "error", error: action.error }));
    case "edit":
      return update(state, action.path, (f) =>
        f.content === action.content ? f : { ...f, content: action.content },
      );
    case "saving":
      return update(state, action.path, (f) => ({ ...f, saving: true, saveError: null }));
    case "saved":
      return update(state, action.path, (f) => ({
        ...f,
        saving: false,
        saved: action.content,
        size: action.size,
        serverChanged: false,
        serverGone: false,
      }));
    case "save_failed":
      return update(state, action.path, (f) => ({ ...f, saving: false, saveError: action.error }));
    case "server_changed":
      return update(state, action.path, (f) => ({ ...f, serverChanged: true }));
    case "keep_mine":
      // Their version becomes the base the buffer is compared with: the same version is no news again.
      return update(state, action.path, ({ theirs, ...f }) => ({
        ...f,
        saved: theirs ?? f.saved,
        serverChanged: false,
        serverGone: false,
      }));
    default:
      return state;
  }
}
