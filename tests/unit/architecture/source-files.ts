/** The repository's TypeScript sources the architecture tests read. */
import fs from "node:fs";
import path from "node:path";

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Every `.ts` / `.tsx` file below `dir` (repository-relative, e.g. `lib/db/ids.ts`). */
export function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}
