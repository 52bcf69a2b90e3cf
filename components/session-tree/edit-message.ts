/**
 * "Edit" on a user message of the chat (pi's way of editing an earlier prompt: select it in `/tree`, its text
 * comes back to the editor and the leaf goes to its parent, so sending makes a sibling branch; nothing is
 * deleted). The chat's messages carry no entry ids: the message is found on the tree's root→leaf path by its
 * place among the user messages, counted from the end (a compaction drops early ones from the chat, never late
 * ones), and its preview must agree.
 */
import type { SessionTreeNode, SessionTreeResponse } from "@/components/chat/session-tree-client";

/** The server's preview length (lib/session/tree-view.ts `PREVIEW_CHARS`). */
const PREVIEW_CHARS = 120;

/** The root→leaf path of a tree response, root first (empty when the leaf is null or unknown). */
export function activePathNodes(tree: SessionTreeResponse): SessionTreeNode[] {
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const path: SessionTreeNode[] = [];
  const seen = new Set<string>();
  for (let n = tree.leafId ? byId.get(tree.leafId) : undefined; n && !seen.has(n.id); ) {
    seen.add(n.id);
    path.push(n);
    n = n.parentId !== null ? byId.get(n.parentId) : undefined;
  }
  return path.reverse();
}

/** The preview the server writes for a text (one line, at most 120 characters). */
function previewOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

/**
 * The entry id of the user message that is `fromEnd` user messages before the last one on the current path
 * (0 = the last), when its preview agrees with `text`; null otherwise.
 */
export function userEntryFromEnd(tree: SessionTreeResponse, fromEnd: number, text: string): string | null {
  const users = activePathNodes(tree).filter((n) => n.type === "message" && n.role === "user");
  const node = users[users.length - 1 - fromEnd];
  if (!node) return null;
  // The preview also names images (`[image]`); the text's first part must agree.
  const want = previewOf(text).replace(/…$/, "").slice(0, 60);
  return node.preview.startsWith(want) ? node.id : null;
}
