import { describe, expect, it } from "vitest";
import { languageForPath } from "@/components/editor/language";
import {
  initialOpenFiles,
  isDirty,
  type OpenFilesAction,
  type OpenFilesState,
  reduceOpenFiles,
} from "@/components/editor/open-files";

const run = (actions: OpenFilesAction[], s: OpenFilesState = initialOpenFiles) =>
  actions.reduce(reduceOpenFiles, s);
let rev = 0;
const loaded = (path: string, content: string): OpenFilesAction => ({
  type: "loaded",
  revision: ++rev,
  file: { path, content, binary: false, size: content.length, tooLarge: false },
});

describe("reduceOpenFiles", () => {
  it("opens, edits (dirty), saves (clean) and closes tabs", () => {
    let s = run([{ type: "open", path: "a.ts" }, loaded("a.ts", "x"), { type: "open", path: "b.ts" }]);
    expect(s.active).toBe("b.ts");
    expect(s.files.map((f) => [f.path, f.status])).toEqual([
      ["a.ts", "ready"],
      ["b.ts", "loading"],
    ]);
    s = run(
      [
        { type: "open", path: "a.ts" },
        { type: "edit", path: "a.ts", content: "xy" },
      ],
      s,
    );
    expect(s.active).toBe("a.ts");
    expect(isDirty(s.files[0])).toBe(true);
    s = run(
      [
        { type: "saving", path: "a.ts" },
        { type: "saved", path: "a.ts", content: "xy", size: 2 },
      ],
      s,
    );
    expect(isDirty(s.files[0])).toBe(false);
    s = run([{ type: "close", path: "a.ts" }], s);
    expect(s).toMatchObject({ active: "b.ts", files: [{ path: "b.ts" }] });
  });

  it("a reload replaces a clean buffer and clears the server-changed flag", () => {
    const s = run([
      { type: "open", path: "a.ts" },
      loaded("a.ts", "old"),
      { type: "edit", path: "a.ts", content: "mine" },
      { type: "server_changed", path: "a.ts" },
    ]);
    expect(s.files[0].serverChanged).toBe(true);
    const r = run([loaded("a.ts", "theirs")], s);
    expect(r.files[0]).toMatchObject({ content: "theirs", saved: "theirs", serverChanged: false });
    expect(r.files[0].revision).toBeGreaterThan(s.files[0].revision);
    // Edits never bump the revision: the editor keeps its own buffer.
    expect(run([{ type: "edit", path: "a.ts", content: "z" }], r).files[0].revision).toBe(
      r.files[0].revision,
    );
    expect(run([{ type: "keep_mine", path: "a.ts" }], s).files[0]).toMatchObject({
      content: "mine",
      serverChanged: false,
    });
  });

  it("binary and too-large files are never dirty", () => {
    const s = run([
      { type: "open", path: "i.png" },
      {
        type: "loaded",
        revision: 99,
        file: { path: "i.png", content: null, binary: true, size: 9, tooLarge: false },
      },
    ]);
    expect(s.files[0]).toMatchObject({ binary: true, content: "" });
    expect(isDirty({ ...s.files[0], content: "z" })).toBe(false);
  });
});

describe("languageForPath", () => {
  it("maps extensions and names", () => {
    expect(languageForPath("src/a.tsx")).toBe("typescript");
    expect(languageForPath("package.json")).toBe("json");
    expect(languageForPath("README.md")).toBe("markdown");
    expect(languageForPath("Dockerfile")).toBe("dockerfile");
    expect(languageForPath(".bashrc")).toBe("plaintext");
    expect(languageForPath("x.unknown")).toBe("plaintext");
  });
});
