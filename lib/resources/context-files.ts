/**
 * AGENTS.md discovery over the VFS (pi's `loadProjectContextFiles` in resource-loader.ts): per directory
 * the first regular file among the candidates; the agent dir's file first, then every ancestor of cwd from
 * the VFS root down to cwd; a path is loaded once; a leading BOM is stripped. Worktree shadowing and
 * symlink identity arrive with the resources work.
 */
import type { FileSystem } from "@/lib/vfs/types";

/** Candidate names in precedence order (pi 1.1). */
export const CONTEXT_FILE_CANDIDATES = [
  "AGENTS.override.md",
  "AGENTS.md",
  "AGENTS.MD",
  "CLAUDE.md",
  "CLAUDE.MD",
];

export interface ContextFile {
  /** Absolute VFS path. */
  path: string;
  content: string;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The first candidate in `dir` that is a regular file, or null. Read errors fall through to the next. */
export async function loadContextFileFromDir(fs: FileSystem, dir: string): Promise<ContextFile | null> {
  for (const name of CONTEXT_FILE_CANDIDATES) {
    const path = dir === "/" ? `/${name}` : `${dir}/${name}`;
    try {
      const stat = await fs.stat(path);
      if (stat.kind !== "file") continue;
      return { path, content: stripBom(decoder.decode(await fs.readFile(path))) };
    } catch {}
  }
  return null;
}

/** Every ancestor of `cwd`, root first (`/a/b` → `["/", "/a", "/a/b"]`). */
export function ancestorsRootFirst(cwd: string): string[] {
  const parts = cwd.split("/").filter(Boolean);
  return ["/", ...parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`)];
}

/**
 * Context files for `cwd`: `agentDir`'s (on `agentFs`) first, then ancestors root→cwd on `fs`.
 * @returns `{path, content}` in prompt order.
 */
export async function loadProjectContextFiles(
  fs: FileSystem,
  cwd: string,
  options: { agentFs?: FileSystem; agentDir?: string } = {},
): Promise<ContextFile[]> {
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  if (options.agentFs && options.agentDir) {
    const global = await loadContextFileFromDir(options.agentFs, options.agentDir);
    if (global) {
      files.push(global);
      seen.add(`agent:${global.path}`);
    }
  }
  for (const dir of ancestorsRootFirst(cwd)) {
    const file = await loadContextFileFromDir(fs, dir);
    if (file && !seen.has(file.path)) {
      files.push(file);
      seen.add(file.path);
    }
  }
  return files;
}
