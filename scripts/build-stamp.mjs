// The build stamp: one hash of the sources `next build` reads, so `npm start` can tell that the build in
// .next does not match the working tree (after a `git pull`, a checkout or an edit) and rebuild.
//
// Inputs (BUILD_INPUTS, relative to the repo root): the source directories and the top-level files the build
// reads. Each directory is walked in full except for SKIPPED_DIRS (node_modules, .next, .git, .strata at any
// depth); a missing input is recorded as absent, so creating it changes the stamp too. Hashed per file: the
// relative path, its kind (file or symlink) and its contents (a symlink's target). Tests, docs (but the user
// guide, which the /guide page renders), bench, bin and scripts are not inputs (the app's build never reads them).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The directories and files `next build` reads (relative to the repo root). */
export const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "db",
  "public",
  "docs/guide.md",
  "proxy.ts",
  "middleware.ts",
  "instrumentation.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
];

/** Directory names never walked, at any depth. */
export const SKIPPED_DIRS = new Set(["node_modules", ".next", ".git", ".strata"]);

/** Where `npm start` keeps the stamp of the last successful build. */
export const STAMP_FILE = path.join(".next", "strata-build-stamp.json");

/** Bumped when the hashing below changes, so an old stamp never matches a new computation. */
const VERSION = "1";

/**
 * The stamp of the sources under `root`.
 * @param {string} root the repo root
 * @param {string[]} [inputs] defaults to BUILD_INPUTS
 * @returns {{ stamp: string, files: number, bytes: number }} `stamp` = 64 hex characters (sha256);
 *   `files` and `bytes` = how much was hashed.
 */
export function computeBuildStamp(root, inputs = BUILD_INPUTS) {
  const hash = crypto.createHash("sha256");
  hash.update(`strata-build-stamp ${VERSION}\0`);
  let files = 0;
  let bytes = 0;
  const add = (rel, kind, content) => {
    hash.update(`${kind}\0${rel}\0${content.length}\0`);
    hash.update(content);
    files++;
    bytes += content.length;
  };
  const visit = (rel) => {
    const abs = path.join(root, rel);
    let stat;
    try {
      stat = fs.lstatSync(abs);
    } catch (error) {
      if (error.code === "ENOENT") return false;
      throw error;
    }
    if (stat.isSymbolicLink()) add(rel, "link", Buffer.from(fs.readlinkSync(abs)));
    else if (stat.isFile()) add(rel, "file", fs.readFileSync(abs));
    else if (stat.isDirectory()) {
      hash.update(`dir\0${rel}\0`);
      const names = fs
        .readdirSync(abs)
        .filter((name) => !SKIPPED_DIRS.has(name))
        .sort();
      for (const name of names) visit(`${rel}/${name}`);
    }
    return true;
  };
  for (const input of [...inputs].sort()) {
    if (!visit(input)) hash.update(`absent\0${input}\0`);
  }
  return { stamp: hash.digest("hex"), files, bytes };
}

/**
 * The stamp written after the last successful build, or undefined when there is none (no build yet, a
 * build made by `next build` directly, or an unreadable file).
 * @param {string} root
 * @returns {{ stamp: string, builtAt: string } | undefined}
 */
export function readBuildStamp(root) {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(root, STAMP_FILE), "utf8"));
    return typeof data?.stamp === "string" ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Record `stamp` as the stamp of the build in .next (call it only after `next build` succeeded, with the
 * stamp computed before the build started, so an edit made during the build triggers the next rebuild).
 * @param {string} root
 * @param {string} stamp
 * @param {{ buildMs?: number }} [extra]
 */
export function writeBuildStamp(root, stamp, extra = {}) {
  const file = path.join(root, STAMP_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ stamp, builtAt: new Date().toISOString(), ...extra })}\n`);
}

/** Remove the stamp (before a build: a failed build must not keep the old build's stamp). */
export function removeBuildStamp(root) {
  fs.rmSync(path.join(root, STAMP_FILE), { force: true });
}

/**
 * Why the build under `root` must be (re)built, or undefined when it matches the sources.
 * @param {string} root
 * @param {string} stamp the sources' current stamp (computeBuildStamp)
 * @returns {"none" | "unstamped" | "changed" | undefined} `none` = no .next/BUILD_ID; `unstamped` = a build
 *   without a stamp (made by `next build` directly); `changed` = the sources changed since it was built.
 */
export function buildStaleness(root, stamp) {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) return "none";
  const recorded = readBuildStamp(root);
  if (!recorded) return "unstamped";
  return recorded.stamp === stamp ? undefined : "changed";
}
