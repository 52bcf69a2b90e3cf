/**
 * What a checkpoint leaves out besides `.gitignore`: files every toolchain regenerates and no one commits
 * (Python's bytecode caches, test-runner caches, installed npm packages). Applies to untracked paths only — a
 * project that tracks one of them keeps it recorded, as git would — and works like git's `core.excludesFile`.
 */
import ignore from "ignore";

/** The patterns, in `.gitignore` syntax (docs/checkpoints.md lists them). */
export const CHECKPOINT_EXCLUDES = [
  "__pycache__/",
  "*.py[co]",
  ".pytest_cache/",
  ".mypy_cache/",
  ".ruff_cache/",
  "node_modules/",
] as const;

const matcher = ignore().add([...CHECKPOINT_EXCLUDES]);

/** Whether project-relative `rel` (e.g. "pkg/__pycache__/m.cpython-311.pyc") is one of {@link CHECKPOINT_EXCLUDES}. */
export function isCheckpointExcluded(rel: string): boolean {
  return matcher.ignores(rel);
}
