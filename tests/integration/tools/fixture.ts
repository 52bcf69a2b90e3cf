/** Tool-test fixture: a real Postgres-backed VFS holding one project at /proj. */
import { onTestFinished } from "vitest";
import type { AgentToolResult, ToolContext } from "@/lib/tools/types";
import { createTestVfs } from "../../helpers/vfs";

export const ROOT = "/proj";

/**
 * A fresh workspace with `files` (paths relative to /proj) written, and a tool context on it; removed (its database
 * connection released) when the calling test finishes. (`onTestFinished`, not a module-level `afterEach`: the files of
 * a worker share this module, so a hook registered at its import would run only in the first file.)
 */
export async function project(
  files: Record<string, string | Uint8Array> = {},
  cwd = ROOT,
): Promise<ToolContext> {
  const { fs, cleanup } = await createTestVfs();
  onTestFinished(cleanup);
  await fs.mkdir(ROOT, { recursive: true });
  for (const [path, content] of Object.entries(files)) await fs.writeFile(`${ROOT}/${path}`, content);
  return { fs, cwd, projectRoot: ROOT };
}

/** The concatenated text content of a result. */
export function text(result: AgentToolResult<unknown>): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `<image ${c.mimeType}>`)).join("\n");
}
