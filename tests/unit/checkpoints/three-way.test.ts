import { describe, expect, it } from "vitest";
import { threeWay } from "@/lib/checkpoints/three-way";
import type { TreeFile } from "@/lib/vfs/worktree";

/** Blobs by id, content-addressed as git's are: the id is made of the bytes. */
const blobs = new Map<string, Uint8Array>();
function file(text: string | Uint8Array, mode = "100644"): TreeFile {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const oid = `oid:${Array.from(bytes).join(",")}`;
  blobs.set(oid, bytes);
  return { oid, mode };
}
const read = async (oid: string) => blobs.get(oid) as Uint8Array;
const tree = (entries: Record<string, TreeFile>) => new Map(Object.entries(entries));

describe("threeWay", () => {
  it("takes the side that changed a path, and either when both changed it alike", async () => {
    const base = file("b\n");
    const changed = file("c\n");
    const r = await threeWay(
      {
        base: tree({ "one.txt": base, "two.txt": base, "gone.txt": base, "same.txt": base }),
        ours: tree({ "one.txt": changed, "two.txt": base, "gone.txt": base, "same.txt": changed }),
        theirs: tree({ "one.txt": base, "two.txt": changed, "new.txt": changed, "same.txt": changed }),
      },
      read,
    );
    expect([...r.writes]).toEqual([
      ["gone.txt", null],
      ["new.txt", { blob: changed }],
      ["two.txt", { blob: changed }],
    ]);
    expect(r.conflicts).toEqual([]);
  });

  it("merges different lines, marks the same lines, and a delete against a change or a binary is a whole-file conflict", async () => {
    const r = await threeWay(
      {
        base: tree({
          "lines.txt": file("1\n2\n3\n"),
          "clash.txt": file("x\n"),
          "del.txt": file("d\n"),
          bin: file("a"),
        }),
        ours: tree({
          "lines.txt": file("ONE\n2\n3\n"),
          "clash.txt": file("main\n"),
          "del.txt": file("d2\n"),
          bin: file(new Uint8Array([0, 1])),
        }),
        theirs: tree({
          "lines.txt": file("1\n2\nTHREE\n"),
          "clash.txt": file("mine\n"),
          bin: file(new Uint8Array([0, 2])),
        }),
      },
      read,
      { labels: { ours: "main", theirs: "session S" } },
    );
    expect([...r.writes]).toEqual([["lines.txt", { text: "ONE\n2\nTHREE\n", mode: "100644" }]]);
    expect(r.conflicts).toEqual([
      { path: "bin", base: "a", ours: null, theirs: null, marked: null, reason: "binary" },
      {
        path: "clash.txt",
        base: "x\n",
        ours: "main\n",
        theirs: "mine\n",
        marked: "<<<<<<< main\nmain\n=======\nmine\n>>>>>>> session S\n",
        reason: "edited",
      },
      { path: "del.txt", base: "d\n", ours: "d2\n", theirs: null, marked: null, reason: "deleted" },
    ]);
  });

  it("takes a resolution for a conflicting path (null deletes it) and ignores one for a path without conflict", async () => {
    const r = await threeWay(
      {
        base: tree({ "a.txt": file("x\n"), "b.txt": file("y\n"), "c.txt": file("z\n") }),
        ours: tree({ "a.txt": file("main\n"), "b.txt": file("main b\n"), "c.txt": file("z\n") }),
        theirs: tree({ "a.txt": file("mine\n"), "b.txt": file("mine b\n"), "c.txt": file("z\n") }),
      },
      read,
      {
        resolutions: new Map([
          ["a.txt", "both\n"],
          ["b.txt", null],
          ["c.txt", "ignored\n"],
        ]),
      },
    );
    expect([...r.writes]).toEqual([
      ["a.txt", { text: "both\n", mode: "100644" }],
      ["b.txt", null],
    ]);
    expect(r.conflicts).toEqual([]);
  });
});
