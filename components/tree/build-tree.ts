/** Pure helpers: flat `/tree` entries → a sorted nested tree → the visible rows of a tree view. */
import type { TreeEntry, TreeEntryKind } from "@/components/api-client";

export interface TreeNode {
  name: string;
  path: string;
  kind: TreeEntryKind;
  size: number;
  children: TreeNode[];
}

export interface TreeRow {
  node: TreeNode;
  level: number;
  posInSet: number;
  setSize: number;
}

function compareNodes(a: TreeNode, b: TreeNode): number {
  const ad = a.kind === "dir" ? 0 : 1;
  const bd = b.kind === "dir" ? 0 : 1;
  if (ad !== bd) return ad - bd;
  const byName = a.name.localeCompare(b.name, "en", { sensitivity: "base", numeric: true });
  return byName !== 0 ? byName : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Builds the tree (root children), creating missing parent folders; dirs first, then by name. */
export function buildTree(entries: TreeEntry[]): TreeNode[] {
  const root: TreeNode = { name: "", path: "", kind: "dir", size: 0, children: [] };
  const dirs = new Map<string, TreeNode>([["", root]]);

  const ensureDir = (path: string): TreeNode => {
    const found = dirs.get(path);
    if (found) {
      found.kind = "dir";
      return found;
    }
    const slash = path.lastIndexOf("/");
    const parent = ensureDir(slash === -1 ? "" : path.slice(0, slash));
    const node: TreeNode = { name: path.slice(slash + 1), path, kind: "dir", size: 0, children: [] };
    parent.children.push(node);
    dirs.set(path, node);
    return node;
  };

  for (const entry of entries) {
    const path = entry.path.replace(/^\/+|\/+$/g, "");
    if (!path || path === ".git" || path.startsWith(".git/")) continue;
    if (entry.kind === "dir") {
      ensureDir(path).size = entry.size;
      continue;
    }
    const slash = path.lastIndexOf("/");
    const parent = ensureDir(slash === -1 ? "" : path.slice(0, slash));
    if (parent.children.some((c) => c.path === path)) continue;
    parent.children.push({
      name: path.slice(slash + 1),
      path,
      kind: entry.kind,
      size: entry.size,
      children: [],
    });
  }

  const sortDeep = (nodes: TreeNode[]) => {
    nodes.sort(compareNodes);
    for (const n of nodes) sortDeep(n.children);
  };
  sortDeep(root.children);
  return root.children;
}

/** The rows a tree view shows: folders in `expanded` show their children. */
export function visibleRows(nodes: TreeNode[], expanded: ReadonlySet<string>, level = 1): TreeRow[] {
  const rows: TreeRow[] = [];
  nodes.forEach((node, i) => {
    rows.push({ node, level, posInSet: i + 1, setSize: nodes.length });
    if (node.kind === "dir" && expanded.has(node.path)) {
      rows.push(...visibleRows(node.children, expanded, level + 1));
    }
  });
  return rows;
}

/** All ancestor folder paths of the given file paths ("a/b/c.ts" → "a", "a/b"). */
export function ancestorDirs(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    const parts = p.split("/");
    for (let i = 1; i < parts.length; i++) out.add(parts.slice(0, i).join("/"));
  }
  return out;
}

/** The folders above `path` (`a/b/c` → `a`, `a/b`). */
export function parentsOf(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** The folder part of `path` ("" at the root). */
export const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));
export const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * Where dropping `dragged` on `folder` ("" = the root) moves it, or null when that is no move: its own folder,
 * itself, or a folder inside it.
 */
export function dropTarget(dragged: string, folder: string): string | null {
  if (folder === folderOf(dragged) || folder === dragged || folder.startsWith(`${dragged}/`)) return null;
  return folder ? `${folder}/${nameOf(dragged)}` : nameOf(dragged);
}
