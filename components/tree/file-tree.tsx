"use client";

import { type DragEvent, type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError, describeError, type TreeEntry } from "@/components/api-client";
import { movedPath } from "@/components/editor/open-files";
import { Notice } from "@/components/ui/notice";
import { checkNewEntryPath } from "@/lib/projects/new-entry-path";
import {
  ancestorDirs,
  buildTree,
  dropTarget,
  folderOf,
  parentsOf,
  type TreeRow,
  visibleRows,
} from "./build-tree";
import { RenameField } from "./rename-field";
import { TreeMenu, type TreeMenuAction } from "./tree-menu";
import styles from "./tree-ops.module.css";

export interface FileTreeProps {
  entries: TreeEntry[];
  /** Project-relative path of the file shown in the editor. */
  selectedPath: string | null;
  /** Project-relative paths the agent changed in this session. */
  changedPaths: ReadonlySet<string>;
  onOpenFile: (path: string) => void;
  /** Asks to delete a file or folder (the caller confirms); without it, rows have no Delete action. */
  onDelete?: (target: { path: string; kind: "file" | "dir" | "symlink" }) => void;
  /** A path to show (e.g. a file just created): when it changes, the folders above it are expanded. */
  revealPath?: string | null;
  /**
   * Renames or moves `from` to `to` (project-relative; rejects with the server's error). Without it, rows have
   * no Rename / Move to… and cannot be dragged.
   */
  onMove?: (from: string, to: string) => Promise<void>;
}

/** The data type a dragged tree row carries (its path). */
const DRAG_TYPE = "application/x-strata-path";

/**
 * The project's files as an ARIA tree (flat rows with aria-level): folders first, collapsible;
 * clicking a file opens it. Arrow keys move and expand/collapse, Enter/Space activate. With `onDelete`,
 * each row has a Delete button (shown on hover or focus) and the Delete key asks to delete the focused row.
 * With `onMove`: F2 (or the row's ✎ button, or the context menu's Rename) edits the name in place, the context
 * menu's Move to… edits the whole path, and a row dragged onto a folder (or a file in it, or the empty area for
 * the root) moves there. A failed move shows the server's message under the field or above the tree.
 * A new `revealPath` (an entry just created) expands the folders above it.
 */
export function FileTree({
  entries,
  selectedPath,
  changedPaths,
  onOpenFile,
  onDelete,
  revealPath,
  onMove,
}: FileTreeProps) {
  const tree = useMemo(() => buildTree(entries), [entries]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [focused, setFocused] = useState<string | null>(null);
  const rows = useMemo(() => visibleRows(tree, expanded), [tree, expanded]);
  const changedDirs = useMemo(() => ancestorDirs(changedPaths), [changedPaths]);
  const container = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState<{ path: string; mode: "rename" | "move" } | null>(null);
  const [menu, setMenu] = useState<{ path: string; kind: TreeEntry["kind"]; x: number; y: number } | null>(
    null,
  );
  const [dragged, setDragged] = useState<string | null>(null);
  const [dropFolder, setDropFolder] = useState<string | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);

  useEffect(() => {
    const show = revealPath ? parentsOf(revealPath) : [];
    if (show.length === 0) return;
    setExpanded((prev) => (show.every((d) => prev.has(d)) ? prev : new Set([...prev, ...show])));
  }, [revealPath]);

  const toggle = (path: string, open?: boolean) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      const willOpen = open ?? !next.has(path);
      if (willOpen) next.add(path);
      else next.delete(path);
      return next;
    });

  const activate = (row: TreeRow) => {
    setFocused(row.node.path);
    if (row.node.kind === "dir") toggle(row.node.path);
    else onOpenFile(row.node.path);
  };

  const focusRow = (path: string) => {
    setFocused(path);
    const el = container.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`);
    el?.focus();
  };

  const onKeyDown = (e: KeyboardEvent, row: TreeRow, index: number) => {
    const { node } = row;
    switch (e.key) {
      case "Enter":
      case " ":
        e.preventDefault();
        activate(row);
        break;
      case "ArrowDown":
        e.preventDefault();
        if (rows[index + 1]) focusRow(rows[index + 1].node.path);
        break;
      case "ArrowUp":
        e.preventDefault();
        if (rows[index - 1]) focusRow(rows[index - 1].node.path);
        break;
      case "ArrowRight":
        e.preventDefault();
        if (node.kind === "dir") {
          if (!expanded.has(node.path)) toggle(node.path, true);
          else if (rows[index + 1]?.level > row.level) focusRow(rows[index + 1].node.path);
        }
        break;
      case "ArrowLeft": {
        e.preventDefault();
        if (node.kind === "dir" && expanded.has(node.path)) {
          toggle(node.path, false);
        } else {
          const slash = node.path.lastIndexOf("/");
          if (slash !== -1) focusRow(node.path.slice(0, slash));
        }
        break;
      }
      case "Home":
        e.preventDefault();
        if (rows[0]) focusRow(rows[0].node.path);
        break;
      case "End":
        e.preventDefault();
        if (rows.length) focusRow(rows[rows.length - 1].node.path);
        break;
      case "Delete":
        if (onDelete) {
          e.preventDefault();
          onDelete({ path: node.path, kind: node.kind });
        }
        break;
      case "F2":
        if (onMove) {
          e.preventDefault();
          setEditing({ path: node.path, mode: "rename" });
        }
        break;
      case "ContextMenu":
      case "F10":
        if (onMove && (e.key === "ContextMenu" || e.shiftKey)) {
          e.preventDefault();
          const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
          setMenu({ path: node.path, kind: node.kind, x: box.left + 24, y: box.bottom });
        }
        break;
      default:
        break;
    }
  };

  /** Moves `from` to `to`; resolves to the error message to show, or null when it moved. */
  const move = async (from: string, to: string): Promise<string | null> => {
    if (!onMove) return null;
    if (to === from) return null;
    const checked = checkNewEntryPath(to, entries);
    if ("error" in checked) return checked.error;
    try {
      await onMove(from, checked.path);
      setMoveError(null);
      // Expanded folders inside a moved folder stay expanded at their new place; the new place is shown.
      const show = parentsOf(checked.path);
      setExpanded(
        (prev) => new Set([...[...prev].map((d) => movedPath(d, from, checked.path) ?? d), ...show]),
      );
      setFocused(checked.path);
      // The row exists once the caller's tree refresh has rendered.
      requestAnimationFrame(() => focusRow(checked.path));
      return null;
    } catch (err) {
      if (err instanceof ApiError && err.status === 0)
        return `Could not reach the server (${err.message}). Check the connection and try again.`;
      return err instanceof ApiError ? err.message : describeError(err);
    }
  };

  const submitEdit = async (value: string): Promise<string | null> => {
    if (!editing) return null;
    const from = editing.path;
    const trimmed = value.trim();
    const to =
      editing.mode === "move"
        ? trimmed.replace(/^\/+/, "")
        : [folderOf(from), trimmed].filter(Boolean).join("/");
    const error = trimmed === "" ? "Enter a name." : await move(from, to);
    if (!error) setEditing(null);
    return error;
  };

  const pick = (action: TreeMenuAction) => {
    if (!menu) return;
    setMenu(null);
    if (action === "delete") onDelete?.({ path: menu.path, kind: menu.kind });
    else setEditing({ path: menu.path, mode: action });
  };

  // Drag and drop: a row onto a folder row (into it), a file row (into its folder) or the empty area (the root).
  const overFolder = (e: DragEvent, folder: string) => {
    if (!dragged || dropTarget(dragged, folder) === null) return;
    e.preventDefault();
    e.stopPropagation();
    e.dataTransfer.dropEffect = "move";
    if (dropFolder !== folder) setDropFolder(folder);
  };
  const dropOn = async (e: DragEvent, folder: string) => {
    e.preventDefault();
    e.stopPropagation();
    const from = dragged ?? e.dataTransfer.getData(DRAG_TYPE);
    setDragged(null);
    setDropFolder(null);
    const to = from ? dropTarget(from, folder) : null;
    if (!from || !to) return;
    const error = await move(from, to);
    setMoveError(error ? `Could not move ${from} to ${to}: ${error}` : null);
  };

  const moveNotice = moveError ? (
    <div className={styles.moveError}>
      <Notice
        kind="error"
        title="Move failed"
        actions={
          <button type="button" className="btn btn-small" onClick={() => setMoveError(null)}>
            Dismiss
          </button>
        }
      >
        {moveError}
      </Notice>
    </div>
  ) : null;

  if (rows.length === 0) return <p className="muted tree-empty">No files.</p>;
  const tabStop = rows.some((r) => r.node.path === focused) ? focused : (selectedPath ?? rows[0].node.path);
  const hasTabStop = rows.some((r) => r.node.path === tabStop);

  return (
    <>
      {moveNotice}
      <div
        className={`tree${dropFolder === "" ? ` ${styles.treeDropRoot}` : ""}`}
        role="tree"
        aria-label="Files"
        ref={container}
        onDragOver={(e) => overFolder(e, "")}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node)) setDropFolder(null);
        }}
        onDrop={(e) => void dropOn(e, "")}
      >
        {rows.map((row, index) => {
          const { node } = row;
          const isDir = node.kind === "dir";
          const changed = isDir ? changedDirs.has(node.path) : changedPaths.has(node.path);
          const selected = !isDir && node.path === selectedPath;
          const isTabStop = hasTabStop ? node.path === tabStop : index === 0;
          const indent = (row.level - 1) * 12 + 6;
          if (editing?.path === node.path) {
            return (
              <RenameField
                key={node.path}
                mode={editing.mode}
                initial={editing.mode === "move" ? node.path : node.name}
                indent={indent}
                label={editing.mode === "move" ? `Move ${node.path} to` : `Rename ${node.path}`}
                submit={submitEdit}
                onCancel={() => {
                  setEditing(null);
                  requestAnimationFrame(() => focusRow(node.path));
                }}
              />
            );
          }
          const folder = isDir ? node.path : folderOf(node.path);
          const classes = ["tree-row"];
          if (selected) classes.push("selected");
          if (changed) classes.push("changed");
          if (isDir && dropFolder === node.path) classes.push(styles.dropTarget);
          if (dragged === node.path) classes.push(styles.dragging);
          return (
            <div
              key={node.path}
              role="treeitem"
              aria-label={node.name}
              aria-level={row.level}
              aria-posinset={row.posInSet}
              aria-setsize={row.setSize}
              aria-expanded={isDir ? expanded.has(node.path) : undefined}
              aria-selected={isDir ? undefined : selected}
              data-path={node.path}
              data-kind={node.kind}
              data-changed={changed ? "true" : undefined}
              tabIndex={isTabStop ? 0 : -1}
              className={classes.join(" ")}
              style={{ paddingLeft: `${indent}px` }}
              title={node.path}
              draggable={onMove ? true : undefined}
              onDragStart={(e) => {
                e.dataTransfer.setData(DRAG_TYPE, node.path);
                e.dataTransfer.setData("text/plain", node.path);
                e.dataTransfer.effectAllowed = "move";
                setDragged(node.path);
              }}
              onDragEnd={() => {
                setDragged(null);
                setDropFolder(null);
              }}
              onDragOver={(e) => overFolder(e, folder)}
              onDrop={(e) => void dropOn(e, folder)}
              onClick={() => activate(row)}
              onKeyDown={(e) => onKeyDown(e, row, index)}
              onFocus={() => setFocused(node.path)}
              onContextMenu={
                onMove
                  ? (e) => {
                      e.preventDefault();
                      setFocused(node.path);
                      setMenu({ path: node.path, kind: node.kind, x: e.clientX, y: e.clientY });
                    }
                  : undefined
              }
            >
              <span className="tree-icon" aria-hidden="true">
                {isDir ? (expanded.has(node.path) ? "▾" : "▸") : node.kind === "symlink" ? "↪" : ""}
              </span>
              <span className={isDir ? "tree-name dir" : "tree-name"}>{node.name}</span>
              {changed ? (
                <span className="tree-changed" aria-hidden="true" title="Changed by the agent">
                  ●
                </span>
              ) : null}
              {onMove ? (
                <button
                  type="button"
                  className={styles.rowAction}
                  tabIndex={-1}
                  aria-label={`Rename ${node.path}`}
                  title="Rename (F2); right-click for more"
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditing({ path: node.path, mode: "rename" });
                  }}
                >
                  Rename
                </button>
              ) : null}
              {onDelete ? (
                <button
                  type="button"
                  className="tree-delete"
                  tabIndex={-1}
                  aria-label={`Delete ${node.path}`}
                  title={isDir ? "Delete folder" : "Delete file"}
                  onClick={(e) => {
                    e.stopPropagation();
                    onDelete({ path: node.path, kind: node.kind });
                  }}
                >
                  Delete
                </button>
              ) : null}
            </div>
          );
        })}
      </div>
      {menu ? (
        <TreeMenu
          path={menu.path}
          x={menu.x}
          y={menu.y}
          canDelete={Boolean(onDelete)}
          onPick={pick}
          onClose={closeMenu}
        />
      ) : null}
    </>
  );
}
