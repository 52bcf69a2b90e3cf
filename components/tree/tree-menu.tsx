"use client";

import { type KeyboardEvent, useEffect, useRef } from "react";
import styles from "./tree-ops.module.css";

/** What a tree row's context menu can do. */
export type TreeMenuAction = "rename" | "move" | "delete";

/**
 * A tree row's context menu (right click, Shift+F10 or the context-menu key): Rename (F2), Move to…, Delete.
 * Up/Down move between items, Enter picks, Escape or a click elsewhere closes it; focus starts on the first item.
 */
export function TreeMenu({
  path,
  x,
  y,
  canDelete,
  onPick,
  onClose,
}: {
  path: string;
  /** Viewport position of the menu's top-left corner, px. */
  x: number;
  y: number;
  canDelete: boolean;
  onPick: (action: TreeMenuAction) => void;
  onClose: () => void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    const away = (e: MouseEvent) => {
      if (!menu.current?.contains(e.target as Node)) onClose();
    };
    document.addEventListener("mousedown", away, true);
    return () => document.removeEventListener("mousedown", away, true);
  }, [onClose]);
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === "Escape" || e.key === "Tab") {
      e.preventDefault();
      onClose();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = (at + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      items[next]?.focus();
    }
  };
  // Kept inside the viewport (the menu is about 160 × 100 px).
  const left = Math.min(x, window.innerWidth - 170);
  const top = Math.min(y, window.innerHeight - 110);
  return (
    <div
      ref={menu}
      className={styles.menu}
      role="menu"
      aria-label={`Actions for ${path}`}
      style={{ left, top }}
      onKeyDown={onKeyDown}
    >
      <button type="button" role="menuitem" onClick={() => onPick("rename")}>
        Rename <span className={styles.shortcut}>F2</span>
      </button>
      <button type="button" role="menuitem" onClick={() => onPick("move")}>
        Move to…
      </button>
      {canDelete ? (
        <button type="button" role="menuitem" className={styles.danger} onClick={() => onPick("delete")}>
          Delete <span className={styles.shortcut}>Del</span>
        </button>
      ) : null}
    </div>
  );
}
