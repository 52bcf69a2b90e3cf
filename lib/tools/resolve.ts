/**
 * Path resolution shared by the tools: pi's `resolveToCwd` plus Strata's project confinement.
 */

import { assertNoSymlinkEscape, resolveWriteTarget } from "@/lib/vfs/confine";
import { refuseGitWrite } from "@/lib/vfs/errors";
import { resolveProjectPath } from "@/lib/vfs/paths";
import type { ToolContext } from "./types";

/**
 * Resolves a tool path argument against `ctx.cwd`, refusing anything outside `ctx.projectRoot`,
 * including via symlinks. Mirrors pi's `resolveToCwd` (`core/tools/path-utils.ts`).
 *
 * @returns the absolute normalised workspace path (symlinks not replaced).
 * @throws PathEscapeError (code `EACCES`) on `..` escapes, outside absolute paths or escaping symlinks.
 */
export async function resolveToolPath(ctx: ToolContext, input: string): Promise<string> {
  const path = resolveProjectPath(ctx.projectRoot, ctx.cwd, input);
  await assertNoSymlinkEscape(ctx.fs, ctx.projectRoot, path);
  return path;
}

/**
 * `resolveToolPath` for tools that write: also refuses the project's `.git` directory (also when reached
 * through a symlink) and a target over the path limits once its symlinks are resolved.
 * @throws PathEscapeError as `resolveToolPath`; VfsError EACCES for a path in `.git`; VfsError ENAMETOOLONG.
 */
export async function resolveToolWritePath(ctx: ToolContext, input: string): Promise<string> {
  const path = resolveProjectPath(ctx.projectRoot, ctx.cwd, input);
  refuseGitWrite(ctx.projectRoot, path);
  refuseGitWrite(ctx.projectRoot, await resolveWriteTarget(ctx.fs, ctx.projectRoot, path));
  return path;
}

/** Throws pi's `Operation aborted` error when `signal` is aborted. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
