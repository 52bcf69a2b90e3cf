export const BUILD_INPUTS: string[];
export const SKIPPED_DIRS: Set<string>;
export const STAMP_FILE: string;
export function computeBuildStamp(
  root: string,
  inputs?: string[],
): { stamp: string; files: number; bytes: number };
export function readBuildStamp(
  root: string,
): { stamp: string; builtAt: string; buildMs?: number } | undefined;
export function writeBuildStamp(root: string, stamp: string, extra?: { buildMs?: number }): void;
export function removeBuildStamp(root: string): void;
export function buildStaleness(root: string, stamp: string): "none" | "unstamped" | "changed" | undefined;
