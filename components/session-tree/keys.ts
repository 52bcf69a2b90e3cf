/**
 * pi's `/tree` keys (`core/keybindings.ts` defaults and the selector's own) as browser key events → actions.
 * Differences: Chrome never hands `Ctrl+T` to a page (no-tools is its button or `Ctrl+O` cycling), and
 * `Home`/`End` jump to the first/last row; printable keys type into the search as in pi.
 */
import type { FilterMode } from "./view-model";

/** What a key does in the tree list. */
export type TreeAction =
  | { kind: "move"; by: -1 | 1 }
  | { kind: "page"; by: -1 | 1 }
  | { kind: "edge"; to: "first" | "last" }
  | { kind: "foldOrUp" }
  | { kind: "unfoldOrDown" }
  | { kind: "select" }
  | { kind: "cancel" }
  | { kind: "filter"; mode: FilterMode }
  | { kind: "toggleFilter"; mode: FilterMode }
  | { kind: "cycle"; by: -1 | 1 }
  | { kind: "editLabel" }
  | { kind: "toggleLabelTime" }
  | { kind: "type"; text: string }
  | { kind: "backspace" };

/** The key fields an action depends on (a `KeyboardEvent` has them). */
export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

/** The action of a key in the tree list, or null (the browser keeps the key). */
export function treeAction(e: KeyInput): TreeAction | null {
  const mod = e.ctrlKey || e.altKey;
  switch (e.key) {
    case "ArrowUp":
      return { kind: "move", by: -1 };
    case "ArrowDown":
      return { kind: "move", by: 1 };
    case "ArrowLeft":
      return mod ? { kind: "foldOrUp" } : { kind: "page", by: -1 };
    case "ArrowRight":
      return mod ? { kind: "unfoldOrDown" } : { kind: "page", by: 1 };
    case "PageUp":
      return { kind: "page", by: -1 };
    case "PageDown":
      return { kind: "page", by: 1 };
    case "Home":
      return { kind: "edge", to: "first" };
    case "End":
      return { kind: "edge", to: "last" };
    case "Enter":
      return { kind: "select" };
    case "Escape":
      return { kind: "cancel" };
    case "Backspace":
      return mod || e.metaKey ? null : { kind: "backspace" };
  }
  if (e.ctrlKey && !e.altKey && !e.metaKey) {
    switch (e.key.toLowerCase()) {
      case "c":
        return e.shiftKey ? null : { kind: "cancel" };
      case "d":
        return { kind: "filter", mode: "default" };
      case "t":
        return { kind: "toggleFilter", mode: "no-tools" };
      case "u":
        return { kind: "toggleFilter", mode: "user-only" };
      case "l":
        return { kind: "toggleFilter", mode: "labeled-only" };
      case "a":
        return { kind: "toggleFilter", mode: "all" };
      case "o":
        return { kind: "cycle", by: e.shiftKey ? -1 : 1 };
    }
    return null;
  }
  if (e.ctrlKey || e.altKey || e.metaKey) return null;
  if (e.key === "L") return { kind: "editLabel" };
  if (e.key === "T") return { kind: "toggleLabelTime" };
  if (e.key.length === 1 && e.key >= " ") return { kind: "type", text: e.key };
  return null;
}

/** The tree panel's opening shortcut on the chat (pi binds none by default): `Alt+T`. */
export function isOpenTreeKey(e: KeyInput & { code?: string }): boolean {
  return (
    e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && (e.code === "KeyT" || e.key.toLowerCase() === "t")
  );
}
