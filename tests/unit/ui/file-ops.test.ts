/**
 * The IDE around files, pure parts: the quick open's fuzzy ranking and highlights, where a tree drop moves a
 * row, and the open tabs following a move / taking changes made elsewhere without losing unsaved edits.
 */
import { describe, expect, it } from "vitest";
import {
  initialOpenFiles,
  isDirty,
  type OpenFilesAction,
  type OpenFilesState,
  reduceOpenFiles,
} from "@/components/editor/open-files";
import { dropTarget } from "@/components/tree/build-tree";
import { fuzzyFilter, fuzzyMatch, highlightRuns } from "@/components/tree/fuzzy";

const PATHS = [
  "src/components/button.tsx",
  "src/main.ts",
  "lib/util/main-helper.ts",
  "README.md",
  "docs/readme-old.md",
  "tests/unit/fuzzy.test.ts",
  "components/tree/fuzzy.ts",
  "src/Main.tsx",
  "maintenance/notes.txt",
];

describe("fuzzyFilter", () => {
  it("ranks consecutive and file-name matches first, shorter paths on ties", () => {
    expect(fuzzyFilter("main", PATHS).map((m) => m.path)).toEqual([
      "src/main.ts",
      "src/Main.tsx",
      "lib/util/main-helper.ts",
      "maintenance/notes.txt",
    ]);
    expect(fuzzyFilter("fuz", PATHS).map((m) => m.path)).toEqual([
      "tests/unit/fuzzy.test.ts",
      "components/tree/fuzzy.ts",
    ]);
    expect(fuzzyFilter("btn", PATHS).map((m) => m.path)).toEqual([
      "src/components/button.tsx",
      "lib/util/main-helper.ts",
    ]);
    expect(fuzzyFilter("zzz", PATHS)).toEqual([]);
  });

  it("gives the matched positions (case-insensitive, spaces ignored); empty query keeps the order", () => {
    expect(fuzzyMatch("rdm", "README.md")).toMatchObject({ positions: [0, 3, 4] });
    expect(fuzzyMatch("s main", "src/main.ts")).toMatchObject({ positions: [0, 4, 5, 6, 7] });
    expect(fuzzyMatch("mainx", "src/main.ts")).toBeNull();
    expect(fuzzyFilter("", PATHS, 3).map((m) => m.path)).toEqual(PATHS.slice(0, 3));
    expect(highlightRuns("main.ts", [4, 5, 6, 7], 4)).toEqual([
      ["main", true],
      [".ts", false],
    ]);
  });
});

describe("dropTarget", () => {
  it("moves into the folder dropped on, never into itself or where it already is", () => {
    expect(dropTarget("src/a.ts", "lib")).toBe("lib/a.ts");
    expect(dropTarget("src/a.ts", "")).toBe("a.ts");
    expect(dropTarget("src/a.ts", "src")).toBeNull();
    expect(dropTarget("src", "src/lib")).toBeNull();
    expect(dropTarget("src", "src")).toBeNull();
    expect(dropTarget("a.ts", "")).toBeNull();
    expect(dropTarget("src", "srcx")).toBe("srcx/src");
  });
});

const run = (actions: OpenFilesAction[], s: OpenFilesState = initialOpenFiles) =>
  actions.reduce(reduceOpenFiles, s);
const file = (path: string, content: string) => ({
  path,
  content,
  binary: false,
  size: content.length,
  tooLarge: false,
});

describe("open tabs and files changed elsewhere", () => {
  it("follow a folder's move with their buffers, unsaved edits kept", () => {
    const s = run([
      { type: "open", path: "src/a.ts" },
      { type: "loaded", file: file("src/a.ts", "A"), revision: 1 },
      { type: "open", path: "src/lib/b.ts" },
      { type: "loaded", file: file("src/lib/b.ts", "B"), revision: 2 },
      { type: "open", path: "other.ts" },
      { type: "loaded", file: file("other.ts", "O"), revision: 3 },
      { type: "activate", path: "src/lib/b.ts" },
      { type: "edit", path: "src/lib/b.ts", content: "B unsaved" },
      { type: "moved", from: "src", to: "app/src", firstRevision: 10 },
    ]);
    expect(s.active).toBe("app/src/lib/b.ts");
    expect(s.files.map((f) => [f.path, f.content, f.saved, f.revision, isDirty(f)])).toEqual([
      ["app/src/a.ts", "A", "A", 10, false],
      ["app/src/lib/b.ts", "B unsaved", "B", 11, true],
      ["other.ts", "O", "O", 3, false],
    ]);
  });

  it("a clean tab takes new content; a dirty one gets the notice; the same content is no news", () => {
    const start = run([
      { type: "open", path: "a.ts" },
      { type: "loaded", file: file("a.ts", "v1"), revision: 1 },
      { type: "open", path: "b.ts" },
      { type: "loaded", file: file("b.ts", "v1"), revision: 2 },
      { type: "edit", path: "b.ts", content: "mine" },
    ]);
    expect(run([{ type: "server_content", file: file("a.ts", "v1"), revision: 3 }], start)).toBe(start);
    const s = run(
      [
        { type: "server_content", file: file("a.ts", "theirs"), revision: 4 },
        { type: "server_content", file: file("b.ts", "theirs"), revision: 5 },
      ],
      start,
    );
    expect(s.files.map((f) => [f.path, f.content, f.saved, f.serverChanged, f.revision])).toEqual([
      ["a.ts", "theirs", "theirs", false, 4],
      ["b.ts", "mine", "v1", true, 2],
    ]);
    // Keep mine: their version is the new base, so the same version raises no notice again; the edits stay.
    const kept = run(
      [
        { type: "keep_mine", path: "b.ts" },
        { type: "server_content", file: file("b.ts", "theirs"), revision: 7 },
      ],
      s,
    );
    expect(kept.files[1]).toMatchObject({ content: "mine", saved: "theirs", serverChanged: false });
    expect(isDirty(kept.files[1])).toBe(true);
    // The server now holds exactly the buffer (e.g. this tab's own save landed first): clean, no notice.
    const same = run([{ type: "server_content", file: file("b.ts", "mine"), revision: 6 }], start);
    expect(same.files[1]).toMatchObject({ content: "mine", saved: "mine", serverChanged: false });
  });

  it("a deleted file: a clean tab says so, a dirty one keeps the edits with a notice", () => {
    const start = run([
      { type: "open", path: "a.ts" },
      { type: "loaded", file: file("a.ts", "A"), revision: 1 },
      { type: "open", path: "b.ts" },
      { type: "loaded", file: file("b.ts", "B"), revision: 2 },
      { type: "edit", path: "b.ts", content: "B mine" },
    ]);
    const s = run(
      [
        { type: "server_gone", path: "a.ts", message: "a.ts was deleted" },
        { type: "server_gone", path: "b.ts", message: "b.ts was deleted" },
      ],
      start,
    );
    expect(s.files.map((f) => [f.path, f.status, f.error, f.serverGone, f.content])).toEqual([
      ["a.ts", "error", "a.ts was deleted", false, "A"],
      ["b.ts", "ready", null, true, "B mine"],
    ]);
  });
});
