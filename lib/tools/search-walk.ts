/**
 * The file walk behind `find` and `grep`: what fd/ripgrep would visit with `--hidden` and
 * `.gitignore` support, computed over `FileSystem.walk` + `readFiles` instead of a host process.
 */

import ignore, { type Ignore } from "ignore";
import { dirnamePosix, joinPosix, relativePosix } from "@/lib/vfs/paths";
import type { WalkEntry } from "@/lib/vfs/types";
import type { ToolContext } from "./types";

/** Directory names never descended into (VCS metadata and installed packages). */
export const ALWAYS_SKIPPED_DIRS = new Set([".git", "node_modules"]);

const decoder = new TextDecoder();

/** Ancestors of `dir` from `root` down to `dir` itself (both absolute, `dir` inside `root`). */
function chainFromRoot(root: string, dir: string): string[] {
  const rel = relativePosix(root, dir);
  const chain = [root];
  if (rel === "" || rel.startsWith("..")) return chain;
  let acc = root;
  for (const part of rel.split("/")) {
    acc = joinPosix(acc, part);
    chain.push(acc);
  }
  return chain;
}

/**
 * Every entry below `searchDir` that fd/rg would report: hidden files included, `.git` and
 * `node_modules` directories pruned, and paths excluded by any `.gitignore` between the project
 * root and the entry (deeper files override shallower ones; a file inside an ignored directory
 * stays ignored, as in git). Entries come in `walk` order (depth-first, path order).
 *
 * @param ctx tool context (uses `fs` and `projectRoot`).
 * @param searchDir absolute directory inside the project.
 * @throws VFS errors from `walk` (e.g. `ENOENT`, `ENOTDIR`).
 */
export async function walkSearchable(ctx: ToolContext, searchDir: string): Promise<WalkEntry[]> {
  const entries = await ctx.fs.walk(searchDir, {
    skip: (path, stat) =>
      stat.kind === "dir" && ALWAYS_SKIPPED_DIRS.has(path.slice(path.lastIndexOf("/") + 1)),
  });
  const ignoreFiles = chainFromRoot(ctx.projectRoot, searchDir).map((d) => joinPosix(d, ".gitignore"));
  for (const entry of entries) {
    if (entry.stat.kind === "file" && entry.path.endsWith("/.gitignore")) ignoreFiles.push(entry.path);
  }
  const contents = await ctx.fs.readFiles([...new Set(ignoreFiles)]);
  const rules = new Map<string, Ignore>();
  for (const [file, bytes] of contents) {
    rules.set(dirnamePosix(file), ignore().add(decoder.decode(bytes)));
  }
  if (rules.size === 0) return entries;

  const ignoredDirs = new Set<string>();
  const result: WalkEntry[] = [];
  for (const entry of entries) {
    const parent = dirnamePosix(entry.path);
    if (ignoredDirs.has(parent)) {
      if (entry.stat.kind === "dir") ignoredDirs.add(entry.path);
      continue;
    }
    let ignored = false;
    for (const dir of chainFromRoot(ctx.projectRoot, parent)) {
      const ig = rules.get(dir);
      if (!ig) continue;
      const rel = relativePosix(dir, entry.path) + (entry.stat.kind === "dir" ? "/" : "");
      const test = ig.test(rel);
      if (test.ignored) ignored = true;
      else if (test.unignored) ignored = false;
    }
    if (ignored) {
      if (entry.stat.kind === "dir") ignoredDirs.add(entry.path);
      continue;
    }
    result.push(entry);
  }
  return result;
}
