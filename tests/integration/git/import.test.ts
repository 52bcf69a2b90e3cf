/** Archive import (zip, tar.gz, tar) into the Postgres-backed VFS, then the import commit. */
import { gzipSync, strToU8, type Zippable, zipSync } from "fflate";
import * as git from "isomorphic-git";
import { packTar, type TarEntry } from "modern-tar";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { log, readBlobAt } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { importArchive } from "@/lib/vfs/import";
import { NAME_ERRORS } from "@/lib/vfs/names";
import { createTestVfs } from "../../helpers/vfs";

type T = Awaited<ReturnType<typeof createTestVfs>>;
let t: T;
beforeEach(async () => {
  t = await createTestVfs();
});
afterEach(async () => {
  await t.cleanup();
});

const dir = "/proj";
/** Every byte value, twice, plus a NUL-heavy tail: survives only a byte-exact path. */
const BINARY = new Uint8Array([...Array.from({ length: 512 }, (_, i) => i % 256), 0, 0, 0, 255]);
const LIMIT = 1024;
const BIG = new Uint8Array(LIMIT + 1).fill(65);

const EXPECTED_SKIPPED = [
  { path: "../evil", reason: "path contains '..'" },
  { path: "/etc/x", reason: "absolute path" },
  { path: "repo-main/big.txt", reason: `file too large (${LIMIT + 1} bytes, limit ${LIMIT})` },
  { path: "repo-main/escape", reason: "symlink points outside the project" },
  { path: "repo-main/abs-link", reason: "symlink points outside the project" },
];
const EXPECTED_FILES = {
  "README.md": "# Hello\n",
  "src/main.ts": "console.log('hi');\n",
  "src/sub/util.ts": "export {};\n",
};

async function checkImported(report: Awaited<ReturnType<typeof importArchive>>) {
  const textBytes = Object.values(EXPECTED_FILES).reduce((n, s) => n + s.length, 0);
  expect(report).toEqual({
    files: 6,
    bytes: textBytes + BINARY.length + "#!/bin/sh\n".length + "src/main.ts".length,
    skipped: EXPECTED_SKIPPED,
  });
  await t.fs.flush();
  const fs = t.reopen();
  expect(await fs.readdir(dir)).toEqual([".git", "README.md", "bin", "good-link", "img.bin", "src"]);
  for (const [p, content] of Object.entries(EXPECTED_FILES))
    expect(await fs.readText(`${dir}/${p}`)).toBe(content);
  expect(Array.from(await fs.readFile(`${dir}/img.bin`))).toEqual(Array.from(BINARY));
  expect(await fs.readlink(`${dir}/good-link`)).toBe("src/main.ts");
  expect((await fs.stat(`${dir}/bin/run.sh`)).mode).toBe(0o100755);
  expect(await fs.exists("/evil")).toBe(false);
  expect(await fs.exists("/etc/x")).toBe(false);
  expect(await fs.exists(`${dir}/escape`)).toBe(false);
  expect(await fs.exists(`${dir}/big.txt`)).toBe(false);

  const [commit] = await log(fs, dir);
  expect(commit.parents).toEqual([]);
  expect(await git.currentBranch({ fs: createGitFs(fs), dir })).toBe("main");
  expect(await git.listFiles({ fs: createGitFs(fs), dir, ref: commit.oid })).toEqual([
    "README.md",
    "bin/run.sh",
    "good-link",
    "img.bin",
    "src/main.ts",
    "src/sub/util.ts",
  ]);
  expect(Array.from(await readBlobAt(fs, dir, commit.oid, "img.bin"))).toEqual(Array.from(BINARY));
  const status = await git.statusMatrix({ fs: createGitFs(fs), dir });
  expect(status.filter(([, h, w, s]) => !(h === 1 && w === 1 && s === 1))).toEqual([]);
  return commit;
}

describe("importArchive", () => {
  it("imports a GitHub-style .zip: strips the top directory, refuses hostile entries, keeps bytes exact", async () => {
    const unixFile = (data: Uint8Array, mode: number): [Uint8Array, { os: number; attrs: number }] => [
      data,
      { os: 3, attrs: (mode << 16) >>> 0 },
    ];
    const files: Zippable = {
      "repo-main/": new Uint8Array(),
      "repo-main/README.md": strToU8(EXPECTED_FILES["README.md"]),
      "repo-main/src/main.ts": strToU8(EXPECTED_FILES["src/main.ts"]),
      "repo-main/src/sub/util.ts": strToU8(EXPECTED_FILES["src/sub/util.ts"]),
      "repo-main/img.bin": BINARY,
      "repo-main/bin/run.sh": unixFile(strToU8("#!/bin/sh\n"), 0o100755),
      "../evil": strToU8("pwned"),
      "/etc/x": strToU8("pwned"),
      "repo-main/big.txt": BIG,
      "repo-main/escape": unixFile(strToU8("../../../etc/passwd"), 0o120777),
      "repo-main/abs-link": unixFile(strToU8("/etc/passwd"), 0o120777),
      "repo-main/good-link": unixFile(strToU8("src/main.ts"), 0o120777),
    };
    const report = await importArchive(t.fs, dir, zipSync(files), "repo-main.zip", { maxFileBytes: LIMIT });
    const commit = await checkImported(report);
    expect(commit.message).toBe("Import repo-main.zip\n");
  });

  it("imports a .tar.gz the same way", async () => {
    const file = (name: string, body: Uint8Array | string, mode = 0o644): TarEntry => ({
      header: {
        name,
        size: typeof body === "string" ? strToU8(body).length : body.length,
        type: "file",
        mode,
      },
      body,
    });
    const link = (name: string, linkname: string): TarEntry => ({
      header: { name, size: 0, type: "symlink", linkname },
    });
    const tar = await packTar([
      { header: { name: "repo-main/", size: 0, type: "directory" } },
      file("repo-main/README.md", EXPECTED_FILES["README.md"]),
      file("repo-main/src/main.ts", EXPECTED_FILES["src/main.ts"]),
      file("repo-main/src/sub/util.ts", EXPECTED_FILES["src/sub/util.ts"]),
      file("repo-main/img.bin", BINARY),
      file("repo-main/bin/run.sh", "#!/bin/sh\n", 0o755),
      file("../evil", "pwned"),
      file("/etc/x", "pwned"),
      file("repo-main/big.txt", BIG),
      link("repo-main/escape", "../../../etc/passwd"),
      link("repo-main/abs-link", "/etc/passwd"),
      link("repo-main/good-link", "src/main.ts"),
    ]);
    const report = await importArchive(t.fs, dir, gzipSync(tar), "repo-main.tar.gz", { maxFileBytes: LIMIT });
    const commit = await checkImported(report);
    expect(commit.message).toBe("Import repo-main.tar.gz\n");
  });

  it("reports a duplicate path: the later entry is imported (as tar extracts), the earlier listed as skipped", async () => {
    const entry = (name: string, body: string): TarEntry => ({
      header: { name, size: strToU8(body).length, type: "file", mode: 0o644 },
      body,
    });
    const tar = await packTar([entry("a.txt", "first"), entry("b.txt", "b"), entry("a.txt", "second!")]);
    const report = await importArchive(t.fs, dir, tar, "dup.tar");
    expect(report).toEqual({
      files: 2,
      bytes: 8,
      skipped: [{ path: "a.txt", reason: "duplicate entry: a later entry with the same path was imported" }],
    });
    expect(await t.fs.readText(`${dir}/a.txt`)).toBe("second!");
  });

  it("keeps a top-level file (no stripping) and skips .git entries", async () => {
    const archive = zipSync({
      "a.txt": strToU8("a"),
      "lib/b.txt": strToU8("b"),
      ".git/config": strToU8("[core]"),
    });
    const report = await importArchive(t.fs, dir, archive, "flat.zip");
    expect(report).toEqual({
      files: 2,
      bytes: 2,
      skipped: [{ path: ".git/config", reason: ".git metadata is not imported" }],
    });
    expect(await t.fs.readText(`${dir}/lib/b.txt`)).toBe("b");
  });

  it("skips names the one name rule refuses (control, bidi, dots only, what git reads as .git) with its words", async () => {
    const archive = zipSync({
      "ok.txt": strToU8("ok"),
      "tab\there.txt": strToU8("t"),
      "invoice\u202etxt.exe": strToU8("i"),
      ".../x.txt": strToU8("d"),
      "sub/git~1/y.txt": strToU8("g"),
    });
    const report = await importArchive(t.fs, dir, archive, "names.zip");
    expect(report).toEqual({
      files: 1,
      bytes: 2,
      skipped: [
        { path: "tab\there.txt", reason: `"tab<U+0009>here.txt": ${NAME_ERRORS.control}` },
        { path: "invoice\u202etxt.exe", reason: `"invoice<U+202E>txt.exe": ${NAME_ERRORS.bidi}` },
        { path: ".../x.txt", reason: `"...": ${NAME_ERRORS.dots}` },
        { path: "sub/git~1/y.txt", reason: `"git~1": ${NAME_ERRORS.gitAlias}` },
      ],
    });
    expect(await t.fs.readdir(dir)).toEqual([".git", "ok.txt"]);
    const head = (await log(t.fs, dir, "HEAD"))[0];
    expect(new TextDecoder().decode(await readBlobAt(t.fs, dir, head.oid, "ok.txt"))).toBe("ok");
  });

  it("rejects archives that are not what their name says, writing nothing", async () => {
    const garbage = strToU8("this is not an archive at all, just some text that is long enough");
    await expect(importArchive(t.fs, dir, garbage, "x.zip")).rejects.toThrow(
      "Not a valid .zip archive: x.zip (no zip signature)",
    );
    await expect(importArchive(t.fs, dir, garbage, "x.tar.gz")).rejects.toThrow(
      "Not a valid .tar.gz archive: x.tar.gz (no gzip signature)",
    );
    await expect(importArchive(t.fs, dir, gzipSync(garbage), "x.tgz")).rejects.toThrow(
      "Not a valid .tar.gz archive: x.tgz (no tar header)",
    );
    const truncated = zipSync({ "a.txt": strToU8("hello hello hello") }).subarray(0, 30);
    await expect(importArchive(t.fs, dir, truncated, "cut.zip")).rejects.toThrow(
      /^Not a valid \.zip archive: cut\.zip \(/,
    );
    await expect(importArchive(t.fs, dir, garbage, "x.rar")).rejects.toThrow(
      "Unsupported archive type: x.rar (expected .zip, .tar.gz, .tgz or .tar)",
    );
    await expect(
      importArchive(t.fs, dir, zipSync({ "a.txt": strToU8("a"), "b.txt": strToU8("b") }), "many.zip", {
        maxEntries: 1,
      }),
    ).rejects.toThrow(
      "Archive refused: more than 1 entries (files and directories count; the limit for one import). Split it into smaller archives, or clone the repository by its git URL.",
    );
    expect(t.fs.dirtyPaths()).toEqual([]);
  });

  it("refuses a zip whose declared sizes exceed the limit before inflating anything", async () => {
    const zeros = new Uint8Array(10 * 1024 * 1024);
    const bomb = zipSync({ "a.bin": zeros, "b.bin": zeros, "c.bin": zeros }, { level: 9 });
    expect(bomb.length).toBeLessThan(200_000);
    await expect(
      importArchive(t.fs, "/bomb", bomb, "bomb.zip", { maxTotalBytes: 20 * 1024 * 1024 }),
    ).rejects.toThrow(
      "Archive refused: it expands to more than 20 MiB (limit for one import). Split it into smaller archives, or clone the repository by its git URL.",
    );
    expect(await t.fs.exists("/bomb")).toBe(false);
  });

  it("skips git metadata in any letter case and at any depth instead of failing the import", async () => {
    const zip = zipSync({
      "keep.txt": strToU8("kept"),
      ".GIT/HEAD": strToU8("ref: refs/heads/x\n"),
      "sub/.git/config": strToU8("[core]\n"),
    });
    const report = await importArchive(t.fs, "/meta", zip, "meta.zip");
    expect(report.files).toBe(1);
    expect(report.skipped).toEqual([
      { path: ".GIT/HEAD", reason: ".git metadata is not imported" },
      { path: "sub/.git/config", reason: ".git metadata is not imported" },
    ]);
    expect(await t.fs.readText("/meta/keep.txt")).toBe("kept");
  });
});
