/**
 * The whole-file checks of a parsed pi session file, run after every line is parsed (./jsonl.ts
 * `SessionJsonlParser.finishSteps`): the entry tree's problems (duplicate ids, self-parents, parent cycles), which
 * refuse the file; parents that name no entry (pi's branch walk stops there), and the header's fields against
 * pi's `SessionHeader` shape (session-manager.ts), both warnings.
 */
import { z } from "zod";
import type { JsonlDiagnostic } from "./jsonl";
import { sessionHeaderSchema } from "./schema";

type Mutable = Record<string, unknown>;

/**
 * The tree problems of `entries` (with their 1-based file lines): a second use of an id (`duplicate-id`, at the
 * later line), an entry whose `parentId` is its own id (`self-parent`), and each parent cycle of two or more
 * entries once (`parent-cycle`, at its first line in the file, listing the cycle in parent order). Entries
 * without a string id and parents that do not exist are not tree problems (the schema check and pi's walk
 * handle them); for a cycle the first entry of a duplicated id counts.
 */
export function findTreeProblems(entries: readonly { line: number; value: Mutable }[]): JsonlDiagnostic[] {
  const out: JsonlDiagnostic[] = [];
  const byId = new Map<string, { line: number; parentId: string | null }>();
  for (const { line, value } of entries) {
    if (typeof value.id !== "string") continue;
    const parentId = typeof value.parentId === "string" ? value.parentId : null;
    const first = byId.get(value.id);
    if (first) {
      out.push({
        line,
        kind: "duplicate-id",
        message: `Line ${line}: entry id ${JSON.stringify(value.id)} is already used on line ${first.line}`,
      });
      continue;
    }
    byId.set(value.id, { line, parentId });
    if (parentId === value.id)
      out.push({
        line,
        kind: "self-parent",
        message: `Line ${line}: entry ${JSON.stringify(value.id)} is its own parent`,
      });
  }
  // Walk each entry's parent chain; a chain that comes back to an entry of the same walk is a cycle.
  const state = new Map<string, number>(); // walk number; -1 = done
  let walk = 0;
  for (const start of byId.keys()) {
    walk++;
    const path: string[] = [];
    let id: string | null = start;
    while (id !== null && byId.has(id) && !state.has(id)) {
      state.set(id, walk);
      path.push(id);
      const parent: string | null = byId.get(id)?.parentId ?? null;
      id = parent === id ? null : parent; // a self-parent is reported above
    }
    if (id !== null && state.get(id) === walk) {
      const cycle = path.slice(path.indexOf(id));
      const lines = cycle.map((c) => byId.get(c)?.line ?? 0);
      const line = Math.min(...lines);
      out.push({
        line,
        kind: "parent-cycle",
        message: `Line ${line}: entries ${[...cycle, cycle[0]].map((c) => JSON.stringify(c)).join(" → ")} (lines ${lines.join(", ")}) form a parent cycle`,
      });
    }
    for (const p of path) state.set(p, -1);
  }
  return out;
}

/**
 * The entries whose `parentId` names no entry of the file (`unknown-parent`, a warning): pi keeps them, and its
 * branch walk stops there, so such an entry starts a tree of its own and nothing before it is in its context.
 * Strata reads them the same way and says so. Entries without a string id/parentId are left to the other checks.
 * @returns one diagnostic per such entry, e.g. `Line 3: parent "zz" is not an entry of this file; the entry
 *   starts a tree of its own (nothing before it is in its context)`.
 */
export function findUnknownParents(entries: readonly { line: number; value: Mutable }[]): JsonlDiagnostic[] {
  const ids = new Set<string>();
  for (const { value } of entries) if (typeof value.id === "string") ids.add(value.id);
  const out: JsonlDiagnostic[] = [];
  for (const { line, value } of entries)
    if (typeof value.parentId === "string" && !ids.has(value.parentId))
      out.push({
        line,
        kind: "unknown-parent",
        message: `Line ${line}: parent ${JSON.stringify(value.parentId)} is not an entry of this file; the entry starts a tree of its own (nothing before it is in its context)`,
      });
  return out;
}

/**
 * The header against pi's shape (`schema`, a warning; the header is kept as it is, as for entries): `version` not a
 * number, `timestamp` or `cwd` missing or not a string, `parentSession` not a string. A missing `version` is not
 * reported (a v1 file, migrated). pi reads such headers: a missing timestamp names the export by the first entry's
 * (`defaultSessionFileName`), a missing cwd works in the project root (`checkHeaderCwd`, the store). The message is
 * zod's, as for entries: `Line 1: ✖ Invalid input: expected string, received number;   → at timestamp`.
 */
export function checkHeaderFields(header: Mutable, line: number): JsonlDiagnostic[] {
  const result = sessionHeaderSchema.safeParse(header);
  if (result.success) return [];
  return [
    { line, kind: "schema", message: `Line ${line}: ${z.prettifyError(result.error).replace(/\n/g, "; ")}` },
  ];
}
