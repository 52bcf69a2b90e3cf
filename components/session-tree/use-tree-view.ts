"use client";

import { useCallback, useMemo, useState } from "react";
import type { SessionTreeResponse } from "@/components/chat/session-tree-client";
import type { TreeAction } from "./keys";
import {
  buildTreeIndex,
  FILTER_MODES,
  type FilterMode,
  nearestRow,
  segmentStart,
  type TreeRow,
  visibleRows,
} from "./view-model";

/** The tree panel's list state: filter mode, search, folds, the selected node, and what a key does to them. */
export interface TreeViewState {
  rows: TreeRow[];
  /** Selected row index. */
  selected: number;
  mode: FilterMode;
  query: string;
  showLabelTimes: boolean;
  setQuery(query: string): void;
  setMode(mode: FilterMode): void;
  select(row: number): void;
  /** Applies a list action; returns what the panel must do itself (`select`, `cancel`, `editLabel`) or null. */
  apply(action: TreeAction): "select" | "cancel" | "editLabel" | null;
  setPageSize(rows: number): void;
}

/** The list state of `tree` (null while loading); the selection starts at the leaf, as in pi. */
export function useTreeView(tree: SessionTreeResponse | null): TreeViewState {
  const index = useMemo(() => buildTreeIndex(tree?.nodes ?? [], tree?.leafId ?? null), [tree]);
  const [mode, setModeState] = useState<FilterMode>("default");
  const [query, setQueryState] = useState("");
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set());
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [showLabelTimes, setShowLabelTimes] = useState(false);
  const [pageSize, setPageSize] = useState(10);
  const rows = useMemo(() => visibleRows(index, { mode, query, folded }), [index, mode, query, folded]);
  const selected = nearestRow(index, rows, selectedId ?? index.leafId);

  const selectRow = useCallback((k: number) => setSelectedId(rows[k]?.node.id ?? null), [rows]);
  // pi: a search or filter change resets every fold; the selection stays on its node or its nearest shown ancestor.
  const setQuery = useCallback((q: string) => {
    setQueryState(q);
    setFolded(new Set());
  }, []);
  const setMode = useCallback((m: FilterMode) => {
    setModeState(m);
    setFolded(new Set());
  }, []);
  const keepSelection = () => setSelectedId(rows[selected]?.node.id ?? selectedId);

  const apply = (action: TreeAction): "select" | "cancel" | "editLabel" | null => {
    const last = rows.length - 1;
    switch (action.kind) {
      case "move":
        if (rows.length > 0)
          selectRow(
            action.by < 0 ? (selected === 0 ? last : selected - 1) : selected === last ? 0 : selected + 1,
          );
        return null;
      case "page":
        selectRow(action.by < 0 ? Math.max(0, selected - pageSize) : Math.min(last, selected + pageSize));
        return null;
      case "edge":
        selectRow(action.to === "first" ? 0 : last);
        return null;
      case "foldOrUp": {
        const row = rows[selected];
        if (row?.foldable && !row.folded) {
          keepSelection();
          setFolded(new Set([...folded, row.node.id]));
        } else selectRow(segmentStart(rows, selected, "up"));
        return null;
      }
      case "unfoldOrDown": {
        const row = rows[selected];
        if (row?.folded) {
          keepSelection();
          const next = new Set(folded);
          next.delete(row.node.id);
          setFolded(next);
        } else selectRow(segmentStart(rows, selected, "down"));
        return null;
      }
      case "filter":
        keepSelection();
        setMode(action.mode);
        return null;
      case "toggleFilter":
        keepSelection();
        setMode(mode === action.mode ? "default" : action.mode);
        return null;
      case "cycle": {
        keepSelection();
        const at = FILTER_MODES.indexOf(mode);
        setMode(FILTER_MODES[(at + action.by + FILTER_MODES.length) % FILTER_MODES.length]);
        return null;
      }
      case "type":
        keepSelection();
        setQuery(query + action.text);
        return null;
      case "backspace":
        if (query) {
          keepSelection();
          setQuery(query.slice(0, -1));
        }
        return null;
      case "toggleLabelTime":
        setShowLabelTimes((v) => !v);
        return null;
      case "cancel":
        if (query) {
          keepSelection();
          setQuery("");
          return null;
        }
        return "cancel";
      case "select":
        return rows.length > 0 ? "select" : null;
      case "editLabel":
        return rows.length > 0 ? "editLabel" : null;
    }
  };

  return {
    rows,
    selected,
    mode,
    query,
    showLabelTimes,
    setQuery: (q) => {
      keepSelection();
      setQuery(q);
    },
    setMode: (m) => {
      keepSelection();
      setMode(m);
    },
    select: selectRow,
    apply,
    setPageSize,
  };
}
