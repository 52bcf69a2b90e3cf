/**
 * Archive bombs against the import route (`POST /api/projects`, multipart) on the real Postgres: each
 * attack of issue 9 is reproduced with a generated archive and answers 422 with the exact message,
 * the project list and the workspace's VFS rows are unchanged (nothing half-imported), the server keeps
 * answering, and a normal archive still imports afterwards.
 */
import { deflateSync, gzipSync, strToU8, zipSync } from "fflate";
import { packTar, type TarEntry } from "modern-tar";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET, POST } from "@/app/api/projects/route";
import { DbScope } from "@/lib/db/client";
import { type ImportReport, importArchive } from "@/lib/vfs/import";
import { asUser, signedInUser } from "../../helpers/auth";
import { createTestVfs } from "../../helpers/vfs";
import { craftZip, type LocalEntry, localBytes } from "../../helpers/zip-craft";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const MiB = 1024 * 1024;
const SPLIT = "Split it into smaller archives, or clone the repository by its git URL.";
const TOO_LARGE = `Archive refused: it expands to more than 64 MiB (limit for one import). ${SPLIT}`;
const RATIO =
  "Archive refused: it expands more than 100 times its compressed size (the limit once it expands to over 1 MiB; a compression bomb).";
const PATHS = `Archive refused: its paths total more than 4 MiB (limit for one import; the git index holds every path). ${SPLIT}`;
const TOO_MANY = `Archive refused: more than 10000 entries (files and directories count; the limit for one import). ${SPLIT}`;

let scope: DbScope;
let workspaceId: string;
beforeAll(async () => {
  scope = new DbScope();
  workspaceId = (await signedIn.actor()).workspaceId;
});
afterAll(async () => {
  await scope.release();
});

interface Answer {
  status: number;
  body: { error?: { code: string; message: string }; report?: ImportReport };
}

async function upload(bytes: Uint8Array, fileName: string): Promise<Answer> {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(bytes)], fileName));
  const res = await POST(
    asUser(signedIn.user, "http://127.0.0.1/api/projects", { method: "POST", body: form }),
  );
  return { status: res.status, body: await res.json() };
}

/** The project names (GET /api/projects, which must answer 200) and the workspace's VFS row count. */
async function state(): Promise<{ projects: string[]; nodes: number }> {
  const res = await GET(asUser(signedIn.user, "http://127.0.0.1/api/projects"));
  expect(res.status).toBe(200);
  const { projects } = (await res.json()) as { projects: { name: string }[] };
  const [row] = await scope.query<{ n: string }>(
    "SELECT count(*) AS n FROM vfs_nodes WHERE workspace_id = $1",
    [workspaceId],
  );
  return { projects: projects.map((p) => p.name).sort(), nodes: Number(row.n) };
}

async function expectRefused(bytes: Uint8Array, fileName: string, message: string): Promise<void> {
  const before = await state();
  const res = await upload(bytes, fileName);
  expect(res).toEqual({ status: 422, body: { error: { code: "import_failed", message } } });
  expect(await state()).toEqual(before);
}

/** Deflated zeros, computed once per size: the "kernel" bombs reuse. */
const zeros = (n: number) => deflateSync(new Uint8Array(n), { level: 9 });

/** A ustar header block for a file of `size` bytes (the body is supplied separately). */
async function tarHeader(name: string, size: number): Promise<Uint8Array> {
  const block = (await packTar([{ header: { name, size: 0, type: "file", mode: 0o644 } }])).slice(0, 512);
  block.set(strToU8(`${size.toString(8).padStart(11, "0")}\0`), 124);
  block.fill(32, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  block.set(strToU8(`${sum.toString(8).padStart(6, "0")}\0 `), 148);
  return block;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

describe("archive bombs through POST /api/projects", () => {
  it("refuses an 11 KB zip whose ten entries overlap one 9.9 MB kernel", async () => {
    const kernel = zeros(9_900_000);
    const bomb = craftZip(
      [{ name: "f0.bin", data: kernel, size: 9_900_000 }],
      Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.bin`, local: 0 })),
    );
    expect(bomb.length).toBeLessThan(11 * 1024);
    await expectRefused(
      bomb,
      "overlap.zip",
      'Archive refused: entry "f1.bin" overlaps entry "f0.bin" (a zip with overlapping entries is a zip bomb).',
    );
  });

  it("refuses a zip whose second entry's header is quoted inside the first entry's data", async () => {
    const inner: LocalEntry = { name: "inner.bin", data: zeros(MiB), size: MiB };
    const quoted = localBytes(inner);
    const bomb = craftZip(
      [{ name: "outer.bin", data: quoted, method: 0 }],
      [
        { name: "outer.bin", local: 0 },
        {
          name: "inner.bin",
          local: 0,
          method: 8,
          offset: 30 + "outer.bin".length,
          size: MiB,
          compressedSize: inner.data.length,
        },
      ],
    );
    await expectRefused(
      bomb,
      "quoted.zip",
      'Archive refused: entry "inner.bin" overlaps entry "outer.bin" (a zip with overlapping entries is a zip bomb).',
    );
  });

  it("refuses a 102 KB zip of ten 9.9 MB zero files (99 MB) before inflating any", async () => {
    const kernel = zeros(9_900_000);
    const bomb = craftZip(
      Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.bin`, data: kernel, size: 9_900_000 })),
    );
    expect(bomb.length).toBeLessThan(102 * 1024);
    await expectRefused(bomb, "ten.zip", TOO_LARGE);
  });

  it("refuses one 9.9 MB zero file expanding more than 100 times", async () => {
    const kernel = zeros(9_900_000);
    await expectRefused(
      zipSync({ "zeros.bin": new Uint8Array(9_900_000) }, { level: 9 }),
      "one.zip",
      `Archive refused: entry "zeros.bin" expands from ${kernel.length} to 9900000 bytes, more than 100 times (the limit for entries over 1 MiB; a zip bomb).`,
    );
  });

  it("refuses a 1 MB gzip bomb (a tar entry of 1 GiB of zeros) after about 1 MiB is inflated", async () => {
    const member = gzipSync(new Uint8Array(16 * MiB), { level: 9 });
    const bomb = concat([
      gzipSync(await tarHeader("bomb.bin", 1024 * MiB)),
      ...Array.from({ length: 64 }, () => member),
    ]);
    expect(bomb.length).toBeLessThan(1.1 * MiB);
    await expectRefused(bomb, "bomb.tar.gz", RATIO);
  });

  it("refuses a small gzip expanding more than 100 times its size", async () => {
    const tar = await packTar([
      { header: { name: "z.bin", size: 2 * MiB, type: "file", mode: 0o644 }, body: new Uint8Array(2 * MiB) },
    ]);
    const bomb = gzipSync(tar, { level: 9 });
    await expectRefused(bomb, "small.tgz", RATIO);
  });

  it("refuses a 19,999-file zip and a 10,001-entry tar.gz by their count, before inflating", async () => {
    const files = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `f/${i}.txt`, data: strToU8("x"), method: 0 }));
    await expectRefused(craftZip(files(19_999)), "many.zip", TOO_MANY);
    const entries: TarEntry[] = Array.from({ length: 10_001 }, (_, i) => ({
      header: { name: `f/${i}.txt`, size: 1, type: "file", mode: 0o644 },
      body: "x",
    }));
    await expectRefused(gzipSync(await packTar(entries)), "many.tar.gz", TOO_MANY);
  });

  it("refuses 1,100 empty files with 3,960-byte paths (4.15 MiB of names) by their path bytes, up front", async () => {
    const dir = Array.from({ length: 60 }, (_, i) => `s${String(i).padStart(2, "0")}${"x".repeat(57)}`).join(
      "/",
    );
    // 300 pseudo-random hex digits a file (as the finding's archive had), so the tar.gz does not trip the ratio.
    let seed = 1;
    const hex = () =>
      Array.from({ length: 300 }, () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return (seed >> 16).toString(16).slice(-1);
      }).join("");
    const names = Array.from({ length: 1_100 }, () => `${dir}/${hex()}`);
    const name = (i: number) => names[i];
    expect(name(0).length).toBe(3_960);
    const entries: TarEntry[] = Array.from({ length: 1_100 }, (_, i) => ({
      header: { name: name(i), size: 0, type: "file", mode: 0o644 },
    }));
    await expectRefused(gzipSync(await packTar(entries)), "long-paths.tar.gz", PATHS);
    const locals = Array.from({ length: 1_100 }, (_, i) => ({
      name: name(i),
      data: new Uint8Array(0),
      method: 0,
    }));
    await expectRefused(craftZip(locals), "long-paths.zip", PATHS);
  });

  it("refuses 200 files in 60-level chains of their own: 12,000 directories from a 40 KB zip", async () => {
    const chain = (i: number) => Array.from({ length: 59 }, (_, d) => (d === 0 ? `c${i}` : "d")).join("/");
    const locals = Array.from({ length: 200 }, (_, i) => ({
      name: `${chain(i)}/f.txt`,
      data: strToU8("x"),
      method: 0,
    }));
    await expectRefused(craftZip(locals), "chains.zip", TOO_MANY);
  });

  it("skips a 150-level path (with the depth limit in the reason) and keeps a 64-level one", async () => {
    const deep = `${Array.from({ length: 149 }, () => "d").join("/")}/x.txt`;
    const ok = `${Array.from({ length: 63 }, () => "k").join("/")}/y.txt`;
    const archive = zipSync({ [deep]: strToU8("deep"), [ok]: strToU8("ok"), "a.txt": strToU8("a") });
    const res = await upload(archive, "deep.zip");
    expect(res.status).toBe(201);
    expect(res.body.report).toEqual({
      files: 2,
      bytes: 3,
      skipped: [{ path: deep, reason: "Path is 150 levels deep; the limit is 64. Use a shallower path." }],
    });
  });

  it("still imports a normal archive after the attacks", async () => {
    const before = await state();
    const res = await upload(
      zipSync({ "repo-main/README.md": strToU8("# Hi\n"), "repo-main/src/a.ts": strToU8("export {};\n") }),
      "repo-main.zip",
    );
    expect(res.status).toBe(201);
    expect(res.body.report).toEqual({ files: 2, bytes: 16, skipped: [] });
    const tar = await packTar([
      { header: { name: "pkg/index.js", size: 3, type: "file", mode: 0o644 }, body: "1;\n" },
      { header: { name: "pkg/bin/run", size: 10, type: "file", mode: 0o755 }, body: "#!/bin/sh\n" },
    ]);
    const tgz = await upload(gzipSync(tar), "pkg.tgz");
    expect(tgz.status).toBe(201);
    expect(tgz.body.report).toEqual({ files: 2, bytes: 13, skipped: [] });
    expect((await state()).projects).toEqual([...before.projects, "pkg", "repo-main"].sort());
  });
});

describe("importArchive", () => {
  it("counts the directories a path implies: 4 nodes pass a limit of 4 and are refused under 3", async () => {
    const t = await createTestVfs();
    try {
      // Three entries, no common top directory to strip; "a" is implied.
      const zip = zipSync({ "a/b/c.txt": strToU8("c"), "d.txt": strToU8("d"), "a/b/": new Uint8Array() });
      await expect(importArchive(t.fs, "/three", zip, "n.zip", { maxEntries: 3 })).rejects.toThrow(
        `Archive refused: more than 3 entries (files and directories count; the limit for one import). ${SPLIT}`,
      );
      expect(await t.reopen().exists("/three")).toBe(false);
      const report = await importArchive(t.fs, "/four", zip, "n.zip", { maxEntries: 4 });
      expect(report).toEqual({ files: 2, bytes: 2, skipped: [] });
      expect(await t.reopen().readText("/four/a/b/c.txt")).toBe("c");
    } finally {
      await t.cleanup();
    }
  });

  it("imports only into an absent or empty directory, and leaves an empty one empty after a refusal", async () => {
    const t = await createTestVfs();
    try {
      await t.fs.writeFile("/full/keep.txt", "mine");
      await t.fs.mkdir("/empty");
      await t.fs.flush();
      const ok = zipSync({ "a.txt": strToU8("a") });
      await expect(importArchive(t.fs, "/full", ok, "a.zip")).rejects.toThrow(
        "Cannot import into /full: it is not empty",
      );
      const liar = craftZip([{ name: "liar.txt", data: deflateSync(new Uint8Array(100)), size: 10 }]);
      await expect(importArchive(t.fs, "/empty", liar, "liar.zip")).rejects.toThrow(
        'Archive refused: entry "liar.txt" inflates to more than its declared 10 bytes (a zip bomb).',
      );
      const fs = t.reopen();
      expect([await fs.readdir("/full"), await fs.readdir("/empty")]).toEqual([["keep.txt"], []]);
    } finally {
      await t.cleanup();
    }
  });

  it("skips a symlink whose target is over the path length limit", async () => {
    const t = await createTestVfs();
    try {
      const target = "a/".repeat(2500);
      const tar = await packTar([
        { header: { name: "long", size: 0, type: "symlink", linkname: target } },
        { header: { name: "ok.txt", size: 2, type: "file", mode: 0o644 }, body: "ok" },
      ]);
      expect(await importArchive(t.fs, "/l", tar, "l.tar")).toEqual({
        files: 1,
        bytes: 2,
        skipped: [{ path: "long", reason: "symlink target too long (5000 bytes, limit 4096)" }],
      });
    } finally {
      await t.cleanup();
    }
  });

  it("skips entries it cannot read (an unknown compression method) and imports the rest", async () => {
    const t = await createTestVfs();
    try {
      const zip = craftZip([
        { name: "packed.bin", data: strToU8("????"), method: 99 },
        { name: "plain.txt", data: strToU8("plain"), method: 0 },
      ]);
      expect(await importArchive(t.fs, "/m", zip, "m.zip")).toEqual({
        files: 1,
        bytes: 5,
        skipped: [{ path: "packed.bin", reason: "unsupported compression method (99)" }],
      });
      expect(await t.reopen().readText("/m/plain.txt")).toBe("plain");
    } finally {
      await t.cleanup();
    }
  });

  it("removes every flushed file, object and directory after a refusal", async () => {
    const t = await createTestVfs();
    try {
      const flush = vi.spyOn(t.fs, "flush");
      // 600 files (a first batch of 500 is flushed), then an entry inflating past its declared size.
      const locals: LocalEntry[] = Array.from({ length: 600 }, (_, i) => ({
        name: `f${i}.txt`,
        data: strToU8(`file ${i}\n`),
        method: 0,
      }));
      locals.push({ name: "liar.txt", data: deflateSync(new Uint8Array(1000).fill(97)), size: 10 });
      await expect(importArchive(t.fs, "/proj", craftZip(locals), "liar.zip")).rejects.toThrow(
        'Archive refused: entry "liar.txt" inflates to more than its declared 10 bytes (a zip bomb).',
      );
      // The first batch of 500 was flushed before the refusal (the cleanup deletes without a flush).
      expect(flush.mock.calls.length).toBe(1);
      const [row] = await t.scope.query<{ n: string }>(
        "SELECT count(*) AS n FROM vfs_nodes WHERE workspace_id = $1",
        [t.workspaceId],
      );
      expect(Number(row.n)).toBe(0);
      expect(await t.reopen().exists("/proj")).toBe(false);
    } finally {
      await t.cleanup();
    }
  });
});
