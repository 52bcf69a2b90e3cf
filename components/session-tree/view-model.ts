/**
 * The session tree's view model (pi's `/tree` selector, `tree-selector.ts`, reimplemented for the browser): the
 * nodes of `GET /api/sessions/:id/tree` in pi's display order (the branch holding the leaf first), the active
 * root→leaf path, pi's five filter modes and its search, folding, and pi's indentation, connectors and gutters of
 * the rows that remain. Pure and O(n) per build; the panel renders only the rows in view.
 */
import type { SessionTreeNode } from "@/components/chat/session-tree-client";

/** pi's filter modes, in the order `Ctrl+O` cycles them. */
export const FILTER_MODES = ["default", "no-tools", "user-only", "labeled-only", "all"] as const;
export type FilterMode = (typeof FILTER_MODES)[number];

/** pi's status-line tag of a mode (`[no-tools]`, …; none for `default`). */
export const FILTER_TAGS: Record<FilterMode, string> = {
  default: "",
  "no-tools": "[no-tools]",
  "user-only": "[user]",
  "labeled-only": "[labeled]",
  all: "[all]",
};

/** Entry types pi's default view hides (settings and bookkeeping). */
const SETTINGS_TYPES = new Set(["label", "custom", "model_change", "thinking_level_change", "session_info"]);

/** What a node is, for its badge. */
export type NodeKind =
  | "user"
  | "assistant"
  | "tool"
  | "bash"
  | "system"
  | "branch-summary"
  | "compaction"
  | "custom"
  | "settings";

/** The kind of a node (message role or entry type). */
export function nodeKind(node: SessionTreeNode): NodeKind {
  if (node.type === "message") {
    if (node.role === "user") return "user";
    if (node.role === "assistant") return "assistant";
    if (node.role === "toolResult") return "tool";
    if (node.role === "bashExecution") return "bash";
    if (node.role === "custom") return "custom";
    return "system";
  }
  if (node.type === "custom_message") return "custom";
  if (node.type === "branch_summary") return "branch-summary";
  if (node.type === "compaction") return "compaction";
  return "settings";
}

/** The row text after the badge: pi's display text where the view carries it, else the preview. */
export function nodeText(node: SessionTreeNode): string {
  if (node.type === "message" && node.role === "toolResult" && node.tool) return node.tool;
  if (node.type === "compaction") return node.preview.replace(/^Compaction: /, "");
  if (node.type === "branch_summary") return node.preview.replace(/^Branch summary: /, "");
  return node.preview || node.type;
}

/** The nodes in display order with what every view of them needs, computed once per tree (O(n)). */
export interface TreeIndex {
  /** pi's display order: depth first, at every fork the child holding the leaf first, then oldest first. */
  nodes: SessionTreeNode[];
  /** Position in `nodes` by id. */
  position: Map<string, number>;
  /** Parent's position (-1: a root, or a parent not in the tree). */
  parent: Int32Array;
  leafId: string | null;
  /** Ids on the root→leaf path. */
  activePath: Set<string>;
  /** Lower-cased searchable text per position (pi: label, role or type words, content). */
  search: string[];
  /** Positions of checkpoints: a commit different from the parent's (files changed there). */
  checkpoints: Set<number>;
}

/**
 * Index the flat nodes (any depth-first order with siblings oldest first) for `leafId`. A node whose parent is
 * not in the list is a root, as in pi's `getTree()`.
 */
export function buildTreeIndex(flat: readonly SessionTreeNode[], leafId: string | null): TreeIndex {
  const byId = new Map<string, SessionTreeNode>();
  for (const n of flat) byId.set(n.id, n);
  const children = new Map<string, SessionTreeNode[]>();
  const roots: SessionTreeNode[] = [];
  for (const n of flat) {
    const p = n.parentId !== null && n.parentId !== n.id ? byId.get(n.parentId) : undefined;
    if (!p) roots.push(n);
    else {
      const list = children.get(p.id);
      if (list) list.push(n);
      else children.set(p.id, [n]);
    }
  }
  const activePath = new Set<string>();
  for (let cur = leafId ? byId.get(leafId) : undefined; cur && !activePath.has(cur.id); ) {
    activePath.add(cur.id);
    cur = cur.parentId !== null ? byId.get(cur.parentId) : undefined;
  }
  const activeFirst = (list: readonly SessionTreeNode[]) => {
    const on = list.filter((c) => activePath.has(c.id));
    return on.length === 0 ? list : [...on, ...list.filter((c) => !activePath.has(c.id))];
  };
  const nodes: SessionTreeNode[] = [];
  const parent: number[] = [];
  const position = new Map<string, number>();
  const stack: { node: SessionTreeNode; parent: number }[] = [];
  const pushAll = (list: readonly SessionTreeNode[], p: number) => {
    const ordered = activeFirst(list);
    for (let i = ordered.length - 1; i >= 0; i--) stack.push({ node: ordered[i], parent: p });
  };
  pushAll(roots, -1);
  while (stack.length > 0) {
    const { node, parent: p } = stack.pop()!;
    if (position.has(node.id)) continue;
    position.set(node.id, nodes.length);
    nodes.push(node);
    parent.push(p);
    const kids = children.get(node.id);
    if (kids) pushAll(kids, nodes.length - 1);
  }
  const search = nodes.map((n) =>
    [n.label ?? "", n.role ?? n.type.replace(/_/g, " "), n.preview, n.tool ?? ""].join(" ").toLowerCase(),
  );
  const checkpoints = new Set<number>();
  nodes.forEach((n, i) => {
    const p = parent[i];
    if (p >= 0 && n.commit && nodes[p].commit && n.commit !== nodes[p].commit) checkpoints.add(i);
  });
  return { nodes, position, parent: Int32Array.from(parent), leafId, activePath, search, checkpoints };
}

/** Whether pi's filter mode `mode` shows the node at `i` (before search and folding). */
export function passesFilter(index: TreeIndex, i: number, mode: FilterMode): boolean {
  const n = index.nodes[i];
  // pi hides assistant messages holding only tool calls, in every mode, unless it is the leaf.
  if (n.toolCallsOnly && n.id !== index.leafId) return false;
  const settings = SETTINGS_TYPES.has(n.type);
  switch (mode) {
    case "user-only":
      return n.type === "message" && n.role === "user";
    case "no-tools":
      return !settings && !(n.type === "message" && n.role === "toolResult");
    case "labeled-only":
      return n.label !== undefined;
    case "all":
      return true;
    default:
      return !settings;
  }
}

/** One shown row: the node, pi's indentation and its prefix (`│  ├─ `, with `⊟`/`⊞` fold marks). */
export interface TreeRow {
  /** Position in `TreeIndex.nodes`. */
  i: number;
  node: SessionTreeNode;
  /** pi's indentation level (before the multiple-roots shift). */
  indent: number;
  /** The gutter text: 3 characters per display level. */
  prefix: string;
  /** A root's fold mark (`⊞ `) when folded (branch starts show it in their connector). */
  foldMark: string;
  foldable: boolean;
  folded: boolean;
  onPath: boolean;
  isLeaf: boolean;
  checkpoint: boolean;
  /** Nearest shown ancestor's row index (-1: none). */
  parentRow: number;
  /** Shown children's row indices. */
  childRows: number[];
}

/** What the rows are computed from. */
export interface ViewOptions {
  mode: FilterMode;
  query: string;
  /** Ids of folded nodes. */
  folded: ReadonlySet<string>;
}

interface Gutter {
  position: number;
  show: boolean;
}

/**
 * The shown rows: pi's filter mode and search (every whitespace-separated token, case-insensitive), minus the
 * descendants of folded nodes; a hidden node's children attach to its nearest shown ancestor, and indentation,
 * connectors and gutters follow pi's rules over that visible tree (a single-child chain stays flat, a fork
 * indents its children, the first generation after a fork indents once more; several roots hang under a virtual
 * root). O(n).
 */
export function visibleRows(index: TreeIndex, options: ViewOptions): TreeRow[] {
  const { nodes, parent } = index;
  const tokens = options.query.toLowerCase().split(/\s+/).filter(Boolean);
  const n = nodes.length;
  const skip = new Uint8Array(n);
  const rowOf = new Int32Array(n).fill(-1);
  const visibleAncestor = new Int32Array(n).fill(-1);
  const rows: TreeRow[] = [];
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = parent[i];
    if (p >= 0 && (options.folded.has(nodes[p].id) || skip[p])) skip[i] = 1;
    const anc = p < 0 ? -1 : rowOf[p] >= 0 ? p : visibleAncestor[p];
    visibleAncestor[i] = anc;
    if (skip[i] || !passesFilter(index, i, options.mode)) continue;
    if (tokens.length > 0 && !tokens.every((t) => index.search[i].includes(t))) continue;
    const node = nodes[i];
    rowOf[i] = rows.length;
    const parentRow = anc >= 0 ? rowOf[anc] : -1;
    rows.push({
      i,
      node,
      indent: 0,
      prefix: "",
      foldMark: "",
      foldable: false,
      folded: options.folded.has(node.id),
      onPath: index.activePath.has(node.id),
      isLeaf: node.id === index.leafId,
      checkpoint: index.checkpoints.has(i),
      parentRow,
      childRows: [],
    });
    if (parentRow >= 0) rows[parentRow].childRows.push(rows.length - 1);
    else roots.push(rows.length - 1);
  }
  layout(rows, roots);
  return rows;
}

/** pi's `recalculateVisualStructure` over the shown rows: indent, connector, gutters → the prefix text. */
function layout(rows: TreeRow[], roots: number[]): void {
  const multipleRoots = roots.length > 1;
  type Item = [
    row: number,
    indent: number,
    justBranched: boolean,
    connector: boolean,
    last: boolean,
    gutters: Gutter[],
    virtualRootChild: boolean,
  ];
  const stack: Item[] = [];
  for (let k = roots.length - 1; k >= 0; k--)
    stack.push([
      roots[k],
      multipleRoots ? 1 : 0,
      multipleRoots,
      multipleRoots,
      k === roots.length - 1,
      [],
      multipleRoots,
    ]);
  while (stack.length > 0) {
    const [r, indent, justBranched, connector, last, gutters, virtualRootChild] = stack.pop()!;
    const row = rows[r];
    row.indent = indent;
    const kids = row.childRows;
    const parentKids = row.parentRow >= 0 ? rows[row.parentRow].childRows.length : 0;
    row.foldable = kids.length > 0 && (row.parentRow < 0 || parentKids > 1);
    const displayIndent = multipleRoots ? Math.max(0, indent - 1) : indent;
    const shown = connector && !virtualRootChild;
    row.prefix = prefixOf(displayIndent, gutters, shown, last, row.folded ? "⊞" : row.foldable ? "⊟" : "─");
    row.foldMark = row.folded && !shown ? "⊞ " : "";
    const many = kids.length > 1;
    const childIndent = many || (justBranched && indent > 0) ? indent + 1 : indent;
    const childGutters = shown
      ? [...gutters, { position: Math.max(0, displayIndent - 1), show: !last }]
      : gutters;
    for (let k = kids.length - 1; k >= 0; k--)
      stack.push([kids[k], childIndent, many, many, k === kids.length - 1, childGutters, false]);
  }
}

function prefixOf(
  displayIndent: number,
  gutters: Gutter[],
  connector: boolean,
  last: boolean,
  mark: string,
): string {
  const at = connector ? displayIndent - 1 : -1;
  let out = "";
  for (let level = 0; level < displayIndent; level++) {
    const g = gutters.find((x) => x.position === level);
    if (g) out += g.show ? "│  " : "   ";
    else if (level === at) out += `${last ? "└" : "├"}${mark} `;
    else out += "   ";
  }
  return out;
}

/**
 * The row to select after the rows changed: `id`'s row, else its nearest shown ancestor's (pi
 * `findNearestVisibleIndex`), else the last row; 0 when there are none.
 */
export function nearestRow(index: TreeIndex, rows: readonly TreeRow[], id: string | null): number {
  if (rows.length === 0) return 0;
  const at = new Map<number, number>();
  for (let k = 0; k < rows.length; k++) at.set(rows[k].i, k);
  for (let i = id ? (index.position.get(id) ?? -1) : -1; i >= 0; i = index.parent[i]) {
    const k = at.get(i);
    if (k !== undefined) return k;
  }
  return rows.length - 1;
}

/**
 * pi's branch-segment jump (`Ctrl+←` / `Ctrl+→` when there is nothing to fold or unfold): `up` goes to the start
 * of the segment above (the first shown node after a fork, walking up), `down` follows first children to the next
 * fork's first child or to the branch's end.
 */
export function segmentStart(rows: readonly TreeRow[], selected: number, direction: "up" | "down"): number {
  if (!rows[selected]) return selected;
  let cur = selected;
  if (direction === "down") {
    for (;;) {
      const kids = rows[cur].childRows;
      if (kids.length === 0) return cur;
      if (kids.length > 1) return kids[0];
      cur = kids[0];
    }
  }
  for (;;) {
    const p = rows[cur].parentRow;
    if (p < 0) return cur;
    if (rows[p].childRows.length > 1 && cur < selected) return cur;
    cur = p;
  }
}
