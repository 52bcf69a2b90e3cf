/** Tool-test fixture: a real Postgres-backed VFS holding one project at /proj. */
import { afterEach } from "vitest";
import type { AgentToolResult, ToolContext } from "@/lib/tools/types";
import { createTestVfs } from "../../helpers/vfs";

export const ROOT = "/proj";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A fresh workspace with `files` (paths relative to /proj) written, and a tool context on it. */
export async function project(
  files: Record<string, string | Uint8Array> = {},
  cwd = ROOT,
): Promise<ToolContext> {
  const { fs, cleanup } = await createTestVfs();
  cleanups.push(cleanup);
  await fs.mkdir(ROOT, { recursive: true });
  for (const [path, content] of Object.entries(files)) await fs.writeFile(`${ROOT}/${path}`, content);
  return { fs, cwd, projectRoot: ROOT };
}

/** The concatenated text content of a result. */
export function text(result: AgentToolResult<unknown>): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `<image ${c.mimeType}>`)).join("\n");
}
