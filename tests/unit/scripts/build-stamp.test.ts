/**
 * The build stamp (scripts/build-stamp.mjs): a hash of the sources `next build` reads. Same tree → same
 * stamp; one changed byte, a new file or a renamed file → another stamp; files under .next, node_modules or
 * outside the build inputs (tests/, docs/) do not count.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  buildStaleness,
  computeBuildStamp,
  readBuildStamp,
  removeBuildStamp,
  writeBuildStamp,
} from "../../../scripts/build-stamp.mjs";

let dir: string;

function put(rel: string, content: string): void {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), content);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "strata-stamp-"));
  put("app/page.tsx", "export default function Page() { return 'hello'; }\n");
  put("lib/a.ts", "export const a = 1;\n");
  put("package.json", '{"name":"x"}\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("computeBuildStamp", () => {
  it("is a fixed sha256 for a fixed tree, and equal for an identical copy elsewhere", () => {
    const first = computeBuildStamp(dir);
    // sha256 of "strata-build-stamp 1\0", then per sorted input "dir\0<rel>\0" or
    // "file\0<rel>\0<bytes>\0<content>" or "absent\0<input>\0" (recomputed independently in Python).
    expect(first).toEqual({
      stamp: "a0d5598db99812ab881195301c03ac0eb6650b3400a0fd31e500365f2dddd936",
      files: 3,
      bytes: 84,
    });
    const copy = mkdtempSync(path.join(tmpdir(), "strata-stamp-copy-"));
    try {
      for (const [rel, text] of [
        ["app/page.tsx", "export default function Page() { return 'hello'; }\n"],
        ["lib/a.ts", "export const a = 1;\n"],
        ["package.json", '{"name":"x"}\n'],
      ]) {
        mkdirSync(path.dirname(path.join(copy, rel)), { recursive: true });
        writeFileSync(path.join(copy, rel), text);
      }
      expect(computeBuildStamp(copy).stamp).toBe(first.stamp);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("changes with one changed byte, a new file, a rename and a new top-level input", () => {
    const base = computeBuildStamp(dir).stamp;
    put("lib/a.ts", "export const a = 2;\n");
    const changed = computeBuildStamp(dir).stamp;
    expect(changed).not.toBe(base);
    put("lib/a.ts", "export const a = 1;\n");
    expect(computeBuildStamp(dir).stamp).toBe(base);

    put("components/b.tsx", "");
    expect(computeBuildStamp(dir).stamp).not.toBe(base);
    rmSync(path.join(dir, "components"), { recursive: true });
    expect(computeBuildStamp(dir).stamp).toBe(base);

    rmSync(path.join(dir, "lib/a.ts"));
    put("lib/c.ts", "export const a = 1;\n");
    expect(computeBuildStamp(dir).stamp).not.toBe(base);
    rmSync(path.join(dir, "lib/c.ts"));
    put("lib/a.ts", "export const a = 1;\n");

    put("proxy.ts", "export {};\n");
    expect(computeBuildStamp(dir).stamp).not.toBe(base);
  });

  it("hashes a symlink's target, not what it points to", () => {
    symlinkSync("a.ts", path.join(dir, "lib/link.ts"));
    const linked = computeBuildStamp(dir);
    expect(linked.files).toBe(4);
    rmSync(path.join(dir, "lib/link.ts"));
    symlinkSync("../package.json", path.join(dir, "lib/link.ts"));
    expect(computeBuildStamp(dir).stamp).not.toBe(linked.stamp);
  });

  it("ignores .next, node_modules, .strata and .git at any depth, and files outside the inputs", () => {
    const base = computeBuildStamp(dir);
    put(".next/BUILD_ID", "abc\n");
    put("node_modules/next/index.js", "x\n");
    put("lib/node_modules/dep/index.js", "x\n");
    put("app/.next/cache", "x\n");
    put(".strata/pgdata/PG_VERSION", "17\n");
    put("lib/.git/HEAD", "ref\n");
    put("tests/unit/x.test.ts", "x\n");
    put("docs/x.md", "x\n");
    put("README.md", "x\n");
    expect(computeBuildStamp(dir)).toEqual(base);
    // The user guide is the one doc the app renders (/guide): it counts.
    put("docs/guide.md", "# Guide\n");
    expect(computeBuildStamp(dir).stamp).not.toBe(base.stamp);
  });
});

describe("the stamp file and buildStaleness", () => {
  it("is none without a build, unstamped for a bare next build, current after writeBuildStamp, changed after an edit", () => {
    const { stamp } = computeBuildStamp(dir);
    expect(buildStaleness(dir, stamp)).toBe("none");
    put(".next/BUILD_ID", "abc\n");
    expect(buildStaleness(dir, stamp)).toBe("unstamped");
    writeBuildStamp(dir, stamp, { buildMs: 1234 });
    expect(readBuildStamp(dir)).toMatchObject({ stamp, buildMs: 1234 });
    expect(buildStaleness(dir, stamp)).toBeUndefined();
    put("app/page.tsx", "export default function Page() { return 'hello!'; }\n");
    expect(buildStaleness(dir, computeBuildStamp(dir).stamp)).toBe("changed");
    removeBuildStamp(dir);
    expect(readBuildStamp(dir)).toBeUndefined();
    expect(buildStaleness(dir, stamp)).toBe("unstamped");
    put(".next/strata-build-stamp.json", "{not json");
    expect(buildStaleness(dir, stamp)).toBe("unstamped");
  });
});
