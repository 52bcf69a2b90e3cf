/** The layer checker itself: it must fail on an upward import, a same-rank import and a folder cycle. */
import { describe, expect, it } from "vitest";
import { layerViolations, parseRankTable, type RankRow, unitCycles, unitOf, unrankedFiles } from "./layers";

const DOC = `# x

## Layers

Some words.

| rank | folders | what lives there |
| ---- | ------- | ---------------- |
| 0 | \`lib/text/\` | helpers |
| 1 | \`lib/llm/\` | pi-ai |
| 2 | \`lib/agent/\`, \`lib/tools/\` | core |
| 5 | \`lib/exec/\` | seam |
| 9 | \`lib/exec/service/\` | its own process |

## Data

| rank | not | this |
`;

const edge = (from: string, to: string, typeOnly = false) => ({ from, to, typeOnly });

describe("layer checker", () => {
  const rows = parseRankTable(DOC);

  it("reads the rank table of the Layers section only", () => {
    expect(rows).toEqual<RankRow[]>([
      { rank: 0, units: ["lib/text/"] },
      { rank: 1, units: ["lib/llm/"] },
      { rank: 2, units: ["lib/agent/", "lib/tools/"] },
      { rank: 5, units: ["lib/exec/"] },
      { rank: 9, units: ["lib/exec/service/"] },
    ]);
  });

  it("refuses a table without the section, without ranks, or with a folder twice", () => {
    expect(() => parseRankTable("# x\n")).toThrow("docs/architecture.md has no '## Layers' section");
    expect(() => parseRankTable("## Layers\n| folder | x |\n| - | - |\n")).toThrow(
      "the Layers table must start with a 'rank' column",
    );
    expect(() =>
      parseRankTable("## Layers\n| rank | f |\n| - | - |\n| 1 | `lib/a/` |\n| 2 | `lib/a/` |\n"),
    ).toThrow("lib/a/ is listed twice in the rank table");
    expect(() => parseRankTable("## Layers\n| rank | f |\n| - | - |\n| x | `lib/a/` |\n")).toThrow(
      "bad rank table row: | x | `lib/a/` |",
    );
  });

  it("puts a file in the unit with the longest prefix", () => {
    expect(unitOf(rows, "lib/exec/client.ts")).toEqual({ unit: "lib/exec/", rank: 5 });
    expect(unitOf(rows, "lib/exec/service/worker.ts")).toEqual({ unit: "lib/exec/service/", rank: 9 });
    expect(unitOf(rows, "app/page.tsx")).toBeUndefined();
  });

  it("fails on a deliberate upward import, runtime or type, and on an import within one rank", () => {
    const upward = edge("lib/llm/stream.ts", "lib/agent/types.ts");
    const typeOnly = edge("lib/text/json.ts", "lib/llm/types.ts", true);
    const sameRank = edge("lib/agent/loop.ts", "lib/tools/types.ts");
    const parentIntoService = edge("lib/exec/client.ts", "lib/exec/service/worker.ts");
    const fine = [
      edge("lib/agent/loop.ts", "lib/llm/types.ts"),
      edge("lib/exec/service/worker.ts", "lib/exec/limits.ts"),
      edge("lib/agent/loop.ts", "lib/agent/types.ts"),
      edge("app/api/route.ts", "lib/exec/service/x.ts"),
    ];
    expect(layerViolations(rows, [upward, typeOnly, sameRank, parentIntoService, ...fine])).toEqual([
      { ...upward, fromUnit: "lib/llm/", fromRank: 1, toUnit: "lib/agent/", toRank: 2 },
      { ...typeOnly, fromUnit: "lib/text/", fromRank: 0, toUnit: "lib/llm/", toRank: 1 },
      { ...sameRank, fromUnit: "lib/agent/", fromRank: 2, toUnit: "lib/tools/", toRank: 2 },
      { ...parentIntoService, fromUnit: "lib/exec/", fromRank: 5, toUnit: "lib/exec/service/", toRank: 9 },
    ]);
  });

  it("names the folder cycle an upward import closes", () => {
    const down = edge("lib/agent/loop.ts", "lib/llm/types.ts");
    const up = edge("lib/llm/stream.ts", "lib/agent/types.ts");
    expect(unitCycles(rows, [down])).toEqual([]);
    expect(unitCycles(rows, [down, up])).toEqual([["lib/agent/", "lib/llm/", "lib/agent/"]]);
  });

  it("reports lib/ files no row covers", () => {
    expect(unrankedFiles(rows, ["lib/llm/a.ts", "lib/new/b.ts", "app/c.ts"])).toEqual(["lib/new/b.ts"]);
  });
});
