import { describe, expect, it } from "vitest";
import { ancestorDirs, buildTree, visibleRows } from "@/components/tree/build-tree";

describe("buildTree", () => {
  const tree = buildTree([
    { path: "src/b.ts", kind: "file", size: 2 },
    { path: "README.md", kind: "file", size: 1 },
    { path: "src", kind: "dir", size: 0 },
    { path: "src/a.ts", kind: "file", size: 3 },
    { path: "lib/x/y.ts", kind: "file", size: 4 },
    { path: "a.txt", kind: "file", size: 5 },
    { path: ".git/HEAD", kind: "file", size: 5 },
  ]);

  it("sorts dirs first, then names, and creates missing parents", () => {
    expect(tree.map((n) => n.path)).toEqual(["lib", "src", "a.txt", "README.md"]);
    expect(tree[0].children.map((n) => [n.path, n.kind])).toEqual([["lib/x", "dir"]]);
    expect(tree[1].children.map((n) => n.name)).toEqual(["a.ts", "b.ts"]);
  });

  it("lists visible rows with levels for expanded folders", () => {
    const rows = visibleRows(tree, new Set(["src"]));
    expect(rows.map((r) => [r.node.path, r.level, r.posInSet, r.setSize])).toEqual([
      ["lib", 1, 1, 4],
      ["src", 1, 2, 4],
      ["src/a.ts", 2, 1, 2],
      ["src/b.ts", 2, 2, 2],
      ["a.txt", 1, 3, 4],
      ["README.md", 1, 4, 4],
    ]);
  });

  it("finds ancestor folders", () => {
    expect([...ancestorDirs(["a/b/c.ts", "d.ts"])]).toEqual(["a", "a/b"]);
  });
});
