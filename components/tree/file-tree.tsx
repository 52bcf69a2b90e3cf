"use client";

import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import type { TreeEntry } from "@/components/api-client";
import { ancestorDirs, buildTree, type TreeRow, visibleRows } from "./build-tree";

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
}

/** The folders above `path` (`a/b/c` → `a`, `a/b`). */
function parentsOf(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/**
 * The project's files as an ARIA tree (flat rows with aria-level): folders first, collapsible;
 * clicking a file opens it. Arrow keys move and expand/collapse, Enter/Space activate. With `onDelete`,
 * each row has a Delete button (shown on hover or focus) and the Delete key asks to delete the focused row.
 * A new `revealPath` (an entry just created) expands the folders above it.
 */
export function FileTree({
  entries,
  selectedPath,
  changedPaths,
  onOpenFile,
  onDelete,
  revealPath,
}: FileTreeProps) {
  const tree = useMemo(() => buildTree(entries), [entries]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [focused, setFocused] = useState<string | null>(null);
  const rows = useMemo(() => visibleRows(tree, expanded), [tree, expanded]);
  const changedDirs = useMemo(() => ancestorDirs(changedPaths), [changedPaths]);
  const container = useRef<HTMLDivElement>(null);

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
      default:
        break;
    }
  };

  if (rows.length === 0) return <p className="muted tree-empty">No files.</p>;
  const tabStop = rows.some((r) => r.node.path === focused) ? focused : (selectedPath ?? rows[0].node.path);
  const hasTabStop = rows.some((r) => r.node.path === tabStop);

  return (
    <div className="tree" role="tree" aria-label="Files" ref={container}>
      {rows.map((row, index) => {
        const { node } = row;
        const isDir = node.kind === "dir";
        const changed = isDir ? changedDirs.has(node.path) : changedPaths.has(node.path);
        const selected = !isDir && node.path === selectedPath;
        const isTabStop = hasTabStop ? node.path === tabStop : index === 0;
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
            className={`tree-row${selected ? " selected" : ""}${changed ? " changed" : ""}`}
            style={{ paddingLeft: `${(row.level - 1) * 12 + 6}px` }}
            title={node.path}
            onClick={() => activate(row)}
            onKeyDown={(e) => onKeyDown(e, row, index)}
            onFocus={() => setFocused(node.path)}
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
  );
}
