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
  /** The agent changed the file on the server while the buffer had unsaved edits. */
  serverChanged: boolean;
  /**
   * Bumped (to a globally unique number) whenever content comes from the server; the editor
   * replaces its buffer only when this changes, never on its own edits.
   */
  revision: number;
}

export interface OpenFilesState {
  files: OpenFile[];
  active: string | null;
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
  | { type: "keep_mine"; path: string };

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
    revision: 0,
  };
}

function update(state: OpenFilesState, path: string, fn: (f: OpenFile) => OpenFile): OpenFilesState {
  let changed = false;
  const files = state.files.map((f) => {
    if (f.path !== path) return f;
    changed = true;
    return fn(f);
  });
  return changed ? { ...state, files } : state;
}

export function reduceOpenFiles(state: OpenFilesState, action: OpenFilesAction): OpenFilesState {
  switch (action.type) {
    case "open":
      if (state.files.some((f) => f.path === action.path)) return { ...state, active: action.path };
      return { files: [...state.files, blank(action.path)], active: action.path };
    case "activate":
      return state.files.some((f) => f.path === action.path) ? { ...state, active: action.path } : state;
    case "close": {
      const idx = state.files.findIndex((f) => f.path === action.path);
      if (idx === -1) return state;
      const files = state.files.filter((f) => f.path !== action.path);
      let active = state.active;
      if (active === action.path) active = (files[idx] ?? files[idx - 1])?.path ?? null;
      return { files, active };
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
        revision: action.revision,
      }));
    }
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
      }));
    case "save_failed":
      return update(state, action.path, (f) => ({ ...f, saving: false, saveError: action.error }));
    case "server_changed":
      return update(state, action.path, (f) => ({ ...f, serverChanged: true }));
    case "keep_mine":
      return update(state, action.path, (f) => ({ ...f, serverChanged: false }));
    default:
      return state;
  }
}
