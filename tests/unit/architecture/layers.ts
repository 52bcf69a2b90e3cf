/**
 * The layer checker behind `imports.test.ts`. The rank table lives in one place, `docs/architecture.md` ("Layers"):
 * each row names a rank and one or more `lib/` units (a folder, or a sub-folder such as `lib/exec/service/` that
 * ranks apart from its parent). A file belongs to the unit with the longest matching prefix; an import — runtime or
 * `import type` — may only go to a unit of a strictly lower rank (or stay inside its own unit), so the folders
 * cannot form a cycle. Pure functions over strings and edge lists, so the checker itself is unit-tested.
 */

/** One row of the rank table: `units` are repository paths ending in `/` (e.g. `lib/agent/`). */
export interface RankRow {
  rank: number;
  units: string[];
}

/** An import edge between two repository files, e.g. `{ from: "lib/llm/stream.ts", to: "lib/agent/types.ts" }`. */
export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** An edge the table forbids, with both units and their ranks. */
export interface LayerViolation extends ImportEdge {
  fromUnit: string;
  fromRank: number;
  toUnit: string;
  toRank: number;
}

/**
 * Reads the rank table from the markdown of `docs/architecture.md`: the first table after the `## Layers` heading
 * whose first column is `rank`. Rows look like `| 3 | \`lib/exec/\`, \`lib/net/\` | … |`.
 * Throws when the section, the table or a row's rank or units are missing, and when a unit is listed twice.
 */
export function parseRankTable(markdown: string): RankRow[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith("Layers\n"));
  if (!section) throw new Error("docs/architecture.md has no '## Layers' section");
  const lines = section.split("\n").filter((l) => l.startsWith("|"));
  const header = lines[0]?.split("|").map((c) => c.trim());
  if (header?.[1] !== "rank") throw new Error("the Layers table must start with a 'rank' column");
  const rows: RankRow[] = [];
  const seen = new Set<string>();
  for (const line of lines.slice(2)) {
    const cells = line.split("|").map((c) => c.trim());
    const rank = Number(cells[1]);
    const units = [...(cells[2] ?? "").matchAll(/`(lib\/[a-z0-9/-]+\/)`/g)].map((m) => m[1]);
    if (!Number.isInteger(rank) || units.length === 0) throw new Error(`bad rank table row: ${line}`);
    for (const unit of units) {
      if (seen.has(unit)) throw new Error(`${unit} is listed twice in the rank table`);
      seen.add(unit);
    }
    rows.push({ rank, units });
  }
  return rows;
}

/** The unit (longest matching prefix) and rank of a repository file, or undefined when no row covers it. */
export function unitOf(rows: RankRow[], file: string): { unit: string; rank: number } | undefined {
  let best: { unit: string; rank: number } | undefined;
  for (const row of rows)
    for (const unit of row.units)
      if (file.startsWith(unit) && (!best || unit.length > best.unit.length)) best = { unit, rank: row.rank };
  return best;
}

/**
 * The edges that break the table: between two different units, to a rank that is not strictly lower. Files
 * outside every unit (e.g. `app/`) are ignored here; `unrankedFiles` reports `lib/` files no row covers.
 */
export function layerViolations(rows: RankRow[], edges: ImportEdge[]): LayerViolation[] {
  const out: LayerViolation[] = [];
  for (const edge of edges) {
    const from = unitOf(rows, edge.from);
    const to = unitOf(rows, edge.to);
    if (!from || !to || from.unit === to.unit || to.rank < from.rank) continue;
    out.push({ ...edge, fromUnit: from.unit, fromRank: from.rank, toUnit: to.unit, toRank: to.rank });
  }
  return out;
}

/** `lib/` files that no row of the table covers (a new folder must be given a rank). */
export function unrankedFiles(rows: RankRow[], files: string[]): string[] {
  return files.filter((f) => f.startsWith("lib/") && !unitOf(rows, f));
}

/**
 * The cycles of the folder graph (units as nodes): each as a list of units, first = last. Empty when the table
 * holds, since every edge goes down; computed separately so a report shows the cycle, not only the edge.
 */
export function unitCycles(rows: RankRow[], edges: ImportEdge[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = unitOf(rows, edge.from)?.unit;
    const to = unitOf(rows, edge.to)?.unit;
    if (!from || !to || from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)?.add(to);
  }
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (unit: string) => {
    state.set(unit, "open");
    stack.push(unit);
    for (const dep of graph.get(unit) ?? []) {
      if (state.get(dep) === "open") cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(unit, "done");
  };
  for (const unit of [...graph.keys()].sort()) if (!state.has(unit)) visit(unit);
  return cycles;
}
