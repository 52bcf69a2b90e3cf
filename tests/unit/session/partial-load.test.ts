/**
 * The premise of `loadSessionContext`: projecting only the path suffix that starts at the latest
 * compaction's first kept entry (with the whole branch's settings) equals projecting the whole branch.
 *
 * Property runs and seed: tests/helpers/property.ts (300 trees; × STRATA_PROPERTY_RUNS / 1,000 in
 * `npm run test:property:deep`); a failure prints the seed and the command that replays it
 * (`STRATA_PROPERTY_SEED=<seed>`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@/lib/session/entries";
import { buildSessionPath, getSessionContextSettings, projectPath } from "@/lib/session/projection";
import { propertyParameters } from "../../helpers/property";
import { assistant, system, toolCallMsg, toolResult, user } from "./helpers";

type Op = { kind: number; a: number; b: number };

/** A random tree: each op appends under a random earlier entry (or continues the chain). */
function buildTree(ops: Op[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  ops.forEach((op, i) => {
    const id = `e${i}`;
    const parentId = i === 0 ? null : op.b % 4 === 0 ? out[op.a % out.length].id : out[i - 1].id;
    const base = { id, parentId, timestamp: new Date(1767225600000 + i * 1000).toISOString() };
    const earlier = i > 0 ? out[op.a % i].id : id;
    switch (op.kind % 9) {
      case 0:
        out.push({ ...base, type: "message", message: user(`u${i}`) });
        break;
      case 1:
        out.push({ ...base, type: "message", message: assistant(`a${i}`) });
        break;
      case 2:
        out.push({ ...base, type: "message", message: toolCallMsg(`c${i}`) });
        break;
      case 3:
        out.push({ ...base, type: "message", message: toolResult(`c${i - 1}`, `r${i}`) });
        break;
      case 4:
        out.push({ ...base, type: "message", message: system({ k: `s${i}` }) });
        break;
      case 5:
        out.push({
          ...base,
          type: "compaction",
          summary: `S${i}`,
          firstKeptEntryId: op.b % 5 === 0 ? "zz" : earlier,
          tokensBefore: i,
          ...(op.b % 2 ? { systemMessage: system({ k: `snap${i}` }) } : {}),
        } as SessionEntry);
        break;
      case 6:
        out.push({
          ...base,
          type: "context_edit",
          targetId: earlier,
          replacement: op.b % 3 === 0 ? null : { content: `edit${i}` },
        } as SessionEntry);
        break;
      case 7:
        out.push({
          ...base,
          type: op.b % 2 ? "thinking_level_change" : "model_change",
          thinkingLevel: "high",
          provider: "p",
          modelId: `m${i}`,
        } as SessionEntry);
        break;
      default:
        out.push({
          ...base,
          type: "branch_summary",
          fromId: earlier,
          summary: op.b % 3 ? `B${i}` : "",
        } as SessionEntry);
    }
  });
  return out;
}

/** What the store's walk returns: back from the leaf, stopping at the latest compaction's first kept entry. */
function partialPath(path: SessionEntry[]): SessionEntry[] {
  const latest = [...path].reverse().find((e) => e.type === "compaction") as
    | { firstKeptEntryId: string }
    | undefined;
  if (!latest) return path;
  const idx = path.findIndex((e) => e.id === latest.firstKeptEntryId);
  return idx < 0 ? path : path.slice(idx);
}

describe("partial context load", () => {
  it("projecting from the latest compaction's first kept entry equals projecting the whole branch", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ kind: fc.nat(), a: fc.nat(), b: fc.nat() }), { minLength: 1, maxLength: 40 }),
        (ops) => {
          const entries = buildTree(ops);
          for (const leaf of entries) {
            const path = buildSessionPath(entries, leaf.id);
            expect(projectPath(partialPath(path), getSessionContextSettings(path))).toEqual(
              projectPath(path),
            );
          }
        },
      ),
      propertyParameters({ numRuns: 300 }),
    );
  });
});
