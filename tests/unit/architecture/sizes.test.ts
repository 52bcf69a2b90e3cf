/**
 * The size rule (docs/architecture.md, "Sizes"), checked on `lib/`, and the checker itself on small sources.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listedExceptions, MAX_FILE_LINES, oversizeKey, oversizes } from "./sizes";
import { ROOT, sources } from "./source-files";

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");

describe("the size checker", () => {
  it("counts a function from its first to its last line, nested arrows and methods too", () => {
    // 1 + 79 + 1 = 81 lines: over. 1 + 78 + 1 = 80: not.
    const over = `export function big() {\n${body(79)}\n}\n`;
    const exact = `export function ok() {\n${body(78)}\n}\n`;
    expect(oversizes("a.ts", over)).toEqual([{ file: "a.ts", name: "big", lines: 81 }]);
    expect(oversizes("b.ts", exact)).toEqual([]);
    const nested = `export function outer() {\n  const inner = () => {\n${body(80)}\n  };\n  return inner;\n}\n`;
    expect(oversizes("c.ts", nested)).toEqual([
      { file: "c.ts", name: "outer", lines: 85 },
      { file: "c.ts", name: "inner", lines: 82 },
    ]);
    const method = `class K {\n  run() {\n${body(80)}\n  }\n}\n`;
    expect(oversizes("d.ts", method)).toEqual([{ file: "d.ts", name: "run", lines: 82 }]);
  });

  it("flags a file over the line limit", () => {
    const text = `${Array.from({ length: MAX_FILE_LINES + 1 }, (_, i) => `export const c${i} = ${i};`).join("\n")}\n`;
    expect(oversizes("big.ts", text)).toEqual([{ file: "big.ts", name: null, lines: 401 }]);
    expect(oversizes("ok.ts", text.split("\n").slice(1).join("\n"))).toEqual([]);
  });

  it("reads the exceptions of the Sizes section only", () => {
    const doc = [
      "## Layers",
      "- `lib/not/this.ts`: another section",
      "## Sizes",
      "Text.",
      "- `lib/a/file.ts`: a reason",
      "- `lib/b/run.ts` `runLoop`: a reason",
      "## Data",
      "- `lib/c.ts`: not here",
    ].join("\n");
    expect([...listedExceptions(doc)]).toEqual(["lib/a/file.ts", "lib/b/run.ts#runLoop"]);
    expect(() => listedExceptions("## Layers\n")).toThrow('docs/architecture.md has no "## Sizes" section');
  });
});

describe("lib/ sizes", () => {
  const listed = listedExceptions(fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8"));
  const found = sources("lib").flatMap((f) => oversizes(f, fs.readFileSync(path.join(ROOT, f), "utf8")));

  it("has no file over 400 lines and no function over 80 lines but those docs/architecture.md lists", () => {
    expect(
      found.filter((o) => !listed.has(oversizeKey(o))).map((o) => `${oversizeKey(o)} (${o.lines} lines)`),
    ).toEqual([]);
  });

  it("lists no exception that is no longer over its limit", () => {
    const over = new Set(found.map(oversizeKey));
    expect([...listed].filter((key) => !over.has(key))).toEqual([]);
  });
});
