/**
 * The session tree's view model against pi's `/tree` selector rules (tree-selector.ts): display order (the
 * branch holding the leaf first), the five filter modes, the hidden tool-call-only assistant messages, search,
 * folding, indentation/connectors/gutters, the active path and leaf, selection fallback, branch-segment jumps;
 * plus the key map, the chat's "Edit" lookup and the windowed range.
 */
import { describe, expect, it } from "vitest";
import type { SessionTreeNode, SessionTreeResponse } from "@/components/chat/session-tree-client";
import { activePathNodes, userEntryFromEnd } from "@/components/session-tree/edit-message";
import { isOpenTreeKey, treeAction } from "@/components/session-tree/keys";
import {
  buildTreeIndex,
  type FilterMode,
  nearestRow,
  nodeKind,
  nodeText,
  segmentStart,
  type TreeIndex,
  visibleRows,
} from "@/components/session-tree/view-model";
import { windowRange } from "@/components/session-tree/windowed-list";

let t = 0;
function node(
  id: string,
  parentId: string | null,
  type: string,
  extra: Partial<SessionTreeNode> = {},
): SessionTreeNode {
  t += 1;
  return {
    id,
    parentId,
    type,
    preview: extra.preview ?? id,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, t)).toISOString(),
    depth: 0,
    childCount: 0,
    ...extra,
  };
}
const msg = (id: string, parentId: string | null, role: string, extra: Partial<SessionTreeNode> = {}) =>
  node(id, parentId, "message", { role, ...extra });

/**
 * m1 (model_change) → u1 → a1 ─┬─ u2 → a2 (tool calls only) → t2 (read) → a3      (older branch)
 *                              └─ u3 → a4 [bee] → l1 (label entry)                  (newer branch, holds the leaf a4)
 * Server order: depth first, children oldest first.
 */
const NODES: SessionTreeNode[] = [
  node("m1", null, "model_change", { preview: "Model: anthropic/claude" }),
  msg("u1", "m1", "user", { preview: "hello", commit: "c1" }),
  msg("a1", "u1", "assistant", { preview: "hi there", commit: "c1" }),
  msg("u2", "a1", "user", { preview: "approach A", commit: "c1" }),
  msg("a2", "u2", "assistant", { preview: "[read]", toolCallsOnly: true, commit: "c2" }),
  msg("t2", "a2", "toolResult", { preview: "read: content", tool: "[read: a.ts]", commit: "c2" }),
  msg("a3", "t2", "assistant", { preview: "done A", commit: "c3" }),
  msg("u3", "a1", "user", { preview: "approach B", commit: "c1" }),
  msg("a4", "u3", "assistant", { preview: "for B", label: "bee", commit: "c1" }),
  node("l1", "a4", "label", { preview: "Label a4: bee" }),
];

const index = (leaf: string | null = "a4") => buildTreeIndex(NODES, leaf);
const rows = (ix: TreeIndex, mode: FilterMode = "default", query = "", folded: string[] = []) =>
  visibleRows(ix, { mode, query, folded: new Set(folded) });
const shape = (ix: TreeIndex, mode: FilterMode = "default", query = "", folded: string[] = []) =>
  rows(ix, mode, query, folded).map(
    (r) => `${r.prefix}${r.foldMark}${r.onPath ? "• " : ""}${r.node.id}${r.isLeaf ? " ←" : ""}`,
  );

describe("tree index", () => {
  it("orders the branch holding the leaf first at every fork, the rest oldest first", () => {
    expect(index().nodes.map((n) => n.id)).toEqual([
      "m1",
      "u1",
      "a1",
      "u3",
      "a4",
      "l1",
      "u2",
      "a2",
      "t2",
      "a3",
    ]);
    expect(index("a3").nodes.map((n) => n.id)).toEqual([
      "m1",
      "u1",
      "a1",
      "u2",
      "a2",
      "t2",
      "a3",
      "u3",
      "a4",
      "l1",
    ]);
  });

  it("marks the root→leaf path and the checkpoints (a commit different from the parent's)", () => {
    const ix = index();
    expect([...ix.activePath].sort()).toEqual(["a1", "a4", "m1", "u1", "u3"]);
    expect([...ix.checkpoints].map((i) => ix.nodes[i].id).sort()).toEqual(["a2", "a3"]);
    expect(index(null).activePath.size).toBe(0);
  });

  it("treats a node whose parent is unknown as a root", () => {
    const ix = buildTreeIndex([msg("x", "gone", "user"), msg("y", "x", "assistant")], "y");
    expect(Array.from(ix.parent)).toEqual([-1, 0]);
  });
});

describe("filter modes (pi)", () => {
  it("default: settings entries and tool-call-only assistant messages are hidden; pi's indentation and connectors", () => {
    expect(shape(index())).toEqual([
      "• u1",
      "• a1",
      "├⊟ • u3",
      "│     • a4 ←",
      "└⊟ u2",
      "      t2",
      "      a3",
    ]);
  });

  it("no-tools: default minus tool results", () => {
    expect(rows(index(), "no-tools").map((r) => r.node.id)).toEqual(["u1", "a1", "u3", "a4", "u2", "a3"]);
  });

  it("user-only: user messages, re-attached to their nearest shown ancestor", () => {
    expect(shape(index(), "user-only")).toEqual(["• u1", "├─ • u3", "└─ u2"]);
  });

  it("labeled-only: labeled entries", () => {
    expect(rows(index(), "labeled-only").map((r) => r.node.id)).toEqual(["a4"]);
  });

  it("all: everything but tool-call-only assistant messages", () => {
    expect(rows(index(), "all").map((r) => r.node.id)).toEqual([
      "m1",
      "u1",
      "a1",
      "u3",
      "a4",
      "l1",
      "u2",
      "t2",
      "a3",
    ]);
  });

  it("a tool-call-only assistant message that is the leaf stays visible", () => {
    expect(rows(index("a2")).map((r) => r.node.id)).toContain("a2");
  });
});

describe("search, folding, selection", () => {
  it("search: every token, case-insensitive, over label, role and text; several matches hang under a virtual root", () => {
    expect(shape(index(), "default", "APPROACH")).toEqual(["• u3", "u2"]);
    expect(rows(index(), "default", "bee for").map((r) => r.node.id)).toEqual(["a4"]);
    expect(rows(index(), "default", "toolresult a.ts").map((r) => r.node.id)).toEqual(["t2"]);
    expect(rows(index(), "default", "nothing-like-this")).toEqual([]);
  });

  it("folding a branch start hides its subtree and marks it ⊞; a folded root shows ⊞ before its text", () => {
    expect(shape(index(), "default", "", ["u3"])).toEqual([
      "• u1",
      "• a1",
      "├⊞ • u3",
      "└⊟ u2",
      "      t2",
      "      a3",
    ]);
    expect(shape(index(), "default", "", ["u1"])).toEqual(["⊞ • u1"]);
    const r = rows(index());
    expect(r.filter((x) => x.foldable).map((x) => x.node.id)).toEqual(["u1", "u3", "u2"]);
  });

  it("selection falls back to the nearest shown ancestor, else the last row", () => {
    const ix = index();
    const r = rows(ix);
    expect(nearestRow(ix, r, "l1")).toBe(3);
    expect(nearestRow(ix, r, "a2")).toBe(4);
    expect(nearestRow(ix, r, "zzz")).toBe(6);
    expect(nearestRow(ix, [], "a4")).toBe(0);
  });

  it("branch-segment jumps: up to the start of the segment above, down to the next fork's first child or the end", () => {
    const r = rows(index());
    expect(segmentStart(r, 6, "up")).toBe(4);
    expect(segmentStart(r, 4, "up")).toBe(0);
    expect(segmentStart(r, 0, "down")).toBe(2);
    expect(segmentStart(r, 2, "down")).toBe(3);
  });
});

describe("node kinds and texts", () => {
  it("distinguishes every kind", () => {
    const kinds = NODES.map(nodeKind);
    expect(kinds).toEqual([
      "settings",
      "user",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "settings",
    ]);
    expect(nodeKind(node("b", null, "branch_summary"))).toBe("branch-summary");
    expect(nodeKind(node("c", null, "compaction"))).toBe("compaction");
    expect(nodeKind(node("d", null, "custom_message"))).toBe("custom");
    expect(nodeKind(msg("e", null, "bashExecution"))).toBe("bash");
    expect(nodeText(NODES[5])).toBe("[read: a.ts]");
    expect(nodeText(node("b", null, "branch_summary", { preview: "Branch summary: tried A" }))).toBe(
      "tried A",
    );
  });
});

describe("keys (pi's /tree bindings)", () => {
  const k = (
    key: string,
    mods: Partial<{ ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean }> = {},
  ) => treeAction({ key, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods });
  it("maps arrows, folds, filters, label, search", () => {
    expect(k("ArrowUp")).toEqual({ kind: "move", by: -1 });
    expect(k("ArrowLeft")).toEqual({ kind: "page", by: -1 });
    expect(k("ArrowLeft", { ctrlKey: true })).toEqual({ kind: "foldOrUp" });
    expect(k("ArrowRight", { altKey: true })).toEqual({ kind: "unfoldOrDown" });
    expect(k("Enter")).toEqual({ kind: "select" });
    expect(k("Escape")).toEqual({ kind: "cancel" });
    expect(k("d", { ctrlKey: true })).toEqual({ kind: "filter", mode: "default" });
    expect(k("u", { ctrlKey: true })).toEqual({ kind: "toggleFilter", mode: "user-only" });
    expect(k("l", { ctrlKey: true })).toEqual({ kind: "toggleFilter", mode: "labeled-only" });
    expect(k("a", { ctrlKey: true })).toEqual({ kind: "toggleFilter", mode: "all" });
    expect(k("O", { ctrlKey: true, shiftKey: true })).toEqual({ kind: "cycle", by: -1 });
    expect(k("L", { shiftKey: true })).toEqual({ kind: "editLabel" });
    expect(k("T", { shiftKey: true })).toEqual({ kind: "toggleLabelTime" });
    expect(k("x")).toEqual({ kind: "type", text: "x" });
    expect(k("Tab")).toBeNull();
    expect(
      isOpenTreeKey({
        key: "t",
        code: "KeyT",
        altKey: true,
        ctrlKey: false,
        shiftKey: false,
        metaKey: false,
      }),
    ).toBe(true);
  });
});

describe("Edit on a chat message", () => {
  const tree: SessionTreeResponse = { leafId: "a4", nodes: NODES };
  it("finds the user message on the current path, counted from the end, when its text agrees", () => {
    expect(activePathNodes(tree).map((n) => n.id)).toEqual(["m1", "u1", "a1", "u3", "a4"]);
    expect(userEntryFromEnd(tree, 0, "approach B")).toBe("u3");
    expect(userEntryFromEnd(tree, 1, "hello")).toBe("u1");
    expect(userEntryFromEnd(tree, 1, "something else")).toBeNull();
    expect(userEntryFromEnd(tree, 2, "hello")).toBeNull();
  });
});

describe("windowed list", () => {
  it("draws only the rows in view plus the overscan", () => {
    expect(windowRange(2000, 24, 0, 480)).toEqual({ start: 0, end: 29 });
    expect(windowRange(2000, 24, 24 * 1000, 480)).toEqual({ start: 992, end: 1029 });
    expect(windowRange(10, 24, 0, 480)).toEqual({ start: 0, end: 10 });
  });
});
