/**
 * The bubblewrap sandbox on a real Postgres VFS: a project materialised, a command run in isolation, the
 * changes written back (lib/exec/service/sandbox/run.ts). Isolation: no network (the host's loopback
 * Postgres is unreachable from inside), no host file outside the tree, only the tree writable. Limits:
 * wall clock, CPU, memory, processes and output stop the command with the `Command stopped: …` message.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DbScope } from "@/lib/db/client";
import { cgroupLimits, sandboxCgroupSupport } from "@/lib/exec/service/sandbox/cgroup";
import { benchSandboxNodeStart, runSandboxCommand } from "@/lib/exec/service/sandbox/run";
import { diffTree, materialiseTree } from "@/lib/exec/service/sandbox/tree";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { createTestVfs } from "../../helpers/vfs";

const ROOT = "/app";
let ws: Awaited<ReturnType<typeof createTestVfs>>;

beforeAll(async () => {
  ws = await createTestVfs();
  await ws.fs.writeFile(
    `${ROOT}/package.json`,
    '{"name":"app","version":"1.0.0","scripts":{"test":"node --test"}}\n',
  );
  await ws.fs.writeFile(`${ROOT}/sum.js`, "module.exports = (a, b) => a - b;\n");
  await ws.fs.writeFile(`${ROOT}/run.sh`, "#!/bin/sh\necho ran\n", { mode: 0o100755 });
  await ws.fs.writeFile(`${ROOT}/old.txt`, "to delete\n");
  await ws.fs.symlink("sum.js", `${ROOT}/link.js`);
  await ws.fs.writeFile(`${ROOT}/.git/HEAD`, "ref: refs/heads/main\n");
  await ws.fs.flush();
});
afterAll(async () => ws.cleanup());

const run = (
  command: string,
  extra: Partial<Parameters<typeof runSandboxCommand>[0]> = {},
  options: Parameters<typeof runSandboxCommand>[2] = {},
) =>
  runSandboxCommand(
    { workspaceId: ws.workspaceId, projectRoot: ROOT, cwd: ROOT, command, ...extra },
    undefined,
    options,
  );
const asRoot = process.getuid?.() === 0;

/** A cold VFS on the workspace (what Postgres holds now). */
const stored = () => {
  const scope = new DbScope();
  return { vfs: openWorkspaceVfs(ws.workspaceId, scope).vfs, done: () => scope.release() };
};

describe("the bubblewrap sandbox", () => {
  it("lets a threaded test suite run: 200 Python threads start and join, with 2 MiB stacks", async () => {
    // At glibc's default 8 MiB stacks, RLIMIT_DATA (512 MiB) stopped the 64th thread: "can't start new thread".
    const script =
      "import threading, time\nts = [threading.Thread(target=time.sleep, args=(0.2,)) for _ in range(200)]\n" +
      "[t.start() for t in ts]\n[t.join() for t in ts]\nprint('joined', len(ts))\n";
    const result = await run(`ulimit -s; python3 -c "${script}"`);
    expect([result.output, result.exitCode, result.killed]).toEqual(["2048\njoined 200\n", 0, undefined]);
  });

  it("runs on a copy of the tree (no .git), with modes and symlinks, as an unprivileged user", async () => {
    const result = await run(
      "ls -A; stat -c '%a %n' run.sh sum.js; readlink link.js; ./run.sh; id -un; echo $HOME; pwd; env | grep -c -e DATABASE_URL -e STRATA_ -e BETTER_AUTH; true",
    );
    expect(result.output).toBe(
      "link.js\nold.txt\npackage.json\nrun.sh\nsum.js\n755 run.sh\n644 sum.js\nsum.js\nran\nsandbox\n/tmp/home\n/workspace\n0\n",
    );
    expect(result).toMatchObject({ exitCode: 0, changedPaths: [], timedOut: false, aborted: false });
    expect(result.killed).toBeUndefined();
  });

  it("writes created, changed and deleted files back to the VFS and names them", async () => {
    const result = await run(
      "mkdir -p out && echo built > out/a.txt && printf 'module.exports = (a, b) => a + b;\\n' > sum.js && rm old.txt && chmod +x out/a.txt && ln -s out/a.txt latest && mkdir .git && echo x > .git/junk",
    );
    expect(result.exitCode).toBe(0);
    expect(result.changedPaths).toEqual([
      "/app/latest",
      "/app/old.txt",
      "/app/out",
      "/app/out/a.txt",
      "/app/sum.js",
    ]);
    const { vfs, done } = stored();
    try {
      expect(await vfs.readText("/app/sum.js")).toBe("module.exports = (a, b) => a + b;\n");
      expect(await vfs.readText("/app/out/a.txt")).toBe("built\n");
      expect((await vfs.stat("/app/out/a.txt")).mode).toBe(0o100755);
      expect(await vfs.readlink("/app/latest")).toBe("out/a.txt");
      expect(await vfs.exists("/app/old.txt")).toBe(false);
      // The project's repository is not touched by what the command did in its copy.
      expect(await vfs.readText("/app/.git/HEAD")).toBe("ref: refs/heads/main\n");
      expect(await vfs.exists("/app/.git/junk")).toBe(false);
    } finally {
      await done();
    }
  });

  it("has no network: the host's Postgres on 127.0.0.1:5432 is unreachable", async () => {
    const result = await run(
      `node -e 'require("net").connect(5432, "127.0.0.1").on("connect", () => { console.log("CONNECTED"); process.exit(0) }).on("error", (e) => { console.log(e.code); process.exit(3) })'`,
    );
    expect(result).toMatchObject({ output: "ECONNREFUSED\n", exitCode: 3 });
    // The same probe on the host reaches it (so the test can fail).
    const { execFileSync } = await import("node:child_process");
    const host = execFileSync(
      "node",
      [
        "-e",
        `require("net").connect(5432, "127.0.0.1").on("connect", () => { console.log("CONNECTED"); process.exit(0) })`,
      ],
      { encoding: "utf8" },
    );
    expect(host).toBe("CONNECTED\n");
    const dns = await run("getent hosts example.com; echo $?");
    expect(dns.output).toBe("2\n");
  });

  it("cannot read a host file outside the tree, nor write outside it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "strata-secret-"));
    const secret = path.join(dir, "secret.txt");
    writeFileSync(secret, "s3cr3t\n");
    try {
      const result = await run(
        `cat ${secret}; cat /root/.bashrc; ls /work /home 2>&1 | head -2; touch /usr/x 2>&1; echo done`,
      );
      expect(result.output).toBe(
        `cat: ${secret}: No such file or directory\ncat: /root/.bashrc: No such file or directory\nls: cannot access '/work': No such file or directory\nls: cannot access '/home': No such file or directory\ntouch: cannot touch '/usr/x': Read-only file system\ndone\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("materialises nothing through a symlink (a crafted row below a symlink is dropped)", async () => {
    const outside = mkdtempSync(path.join(tmpdir(), "strata-outside-"));
    const tree = mkdtempSync(path.join(tmpdir(), "strata-tree-"));
    const row = (p: string, kind: "file" | "dir" | "symlink", data?: string) => ({
      path: `/r/${p}`,
      kind,
      mode: kind === "dir" ? 0o040000 : kind === "symlink" ? 0o120000 : 0o100644,
      size: data?.length ?? 0,
      mtimeMs: 0,
      version: 1,
      data: data === undefined ? null : new TextEncoder().encode(data),
    });
    try {
      const made = await materialiseTree(
        [
          row("link", "symlink", outside),
          row("link/evil", "file", "x"),
          row("link/sub", "dir"),
          row("ok.txt", "file", "ok"),
        ],
        "/r",
        tree,
      );
      expect(readdirSync(outside)).toEqual([]);
      expect(readdirSync(tree).sort()).toEqual(["link", "ok.txt"]);
      expect(made.files).toBe(2);
      expect(existsSync(path.join(outside, "evil"))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it("stops a command at the wall-clock limit", async () => {
    // Only the 1 s limit ends it: the sleep outlasts the test's own timeout, and `late` is never printed. (The limit
    // counts from the request, loading and materialising included, so on a loaded machine — the sandbox's CPU weight
    // is a quarter of the app's — it may end before `start` is printed.)
    const result = await run("echo start; sleep 600; echo late", { limits: { wallMs: 1000 } });
    expect(result.killed).toEqual({
      reason: "wall",
      message: "Command stopped: it ran for more than 1 s (wall-clock limit 1 s).",
    });
    expect(["", "start\n"]).toContain(result.output);
  });

  it("stops a command at the CPU limit, counting every process", async () => {
    const result = await run("(while :; do :; done) & (while :; do :; done) & wait", {
      limits: { cpuMs: 1000, wallMs: 20_000 },
    });
    expect(result.killed).toEqual({
      reason: "cpu",
      message: "Command stopped: it used more than 1 s of CPU time (limit 1 s).",
    });
    // Stopped at the CPU limit (the 20 s wall clock would say "wall"), with the CPU time it measured over it.
    expect(result.usage.cpuMs).toBeGreaterThanOrEqual(1000);
  });

  it("caps memory per process (node and its WebAssembly still start)", async () => {
    const ok = await run(`node -e 'new WebAssembly.Memory({ initial: 1 }); console.log("ok")'`, {
      limits: { memoryMb: 256 },
    });
    expect(ok.output).toBe("ok\n");
    const result = await run(`node -e 'const a = []; for (;;) a.push(Buffer.alloc(1 << 24, 1))'`, {
      limits: { memoryMb: 256 },
    });
    expect(result.killed).toEqual({
      reason: "memory",
      message: "Command stopped: it needed more than 256 MiB of memory (limit 256 MiB).",
    });
    expect(result.exitCode).not.toBe(0);
  });

  it("caps the sandbox's /tmp at the memory cap", async () => {
    const result = await run("exec 2>&1; head -c 300M /dev/zero > /tmp/big; echo $?", {
      limits: { memoryMb: 256 },
    });
    expect(result.output).toBe("head: error writing 'standard output': No space left on device\n1\n");
  });

  it("leaves no writable memory outside the caps: / and /dev read-only, /dev/shm and /tmp within the memory cap", async () => {
    const result = await run(
      "exec 2>&1; touch /big; touch /dev/big; echo x > /dev/null && echo null-ok; head -c 100M /dev/zero > /dev/shm/big; echo $?; df --output=size -B1M /dev/shm /tmp | tail -2 | tr -d ' '; unshare -Ur true; echo $?",
      { limits: { memoryMb: 256 } },
    );
    expect(result.output).toBe(
      "touch: cannot touch '/big': Read-only file system\ntouch: cannot touch '/dev/big': Read-only file system\nnull-ok\nhead: error writing 'standard output': No space left on device\n1\n32\n224\nunshare: unshare failed: No space left on device\n1\n",
    );
  });

  it("caps the size of one file (RLIMIT_FSIZE)", async () => {
    const file = await run(
      "exec 2>&1; trap '' XFSZ; head -c 2M /dev/zero > f.bin; echo $?; stat -c %s f.bin; rm f.bin",
      {
        limits: { fileBytes: 1 << 20 },
      },
    );
    expect(file.output).toBe("head: error writing 'standard output': File too large\n1\n1048576\n");
  });

  // As root (CI, the service in production) the tree is a tmpfs of the limit: a write past it fails at once.
  it.runIf(asRoot)(
    "limits the tree on disk by its file system: a write or fallocate past it fails, and the output says so",
    async () => {
      const tree = await run(
        "exec 2>&1; head -c 3M /dev/urandom > t1.bin; echo $?; fallocate -l 3M t2.bin; echo $?; head -c 3M /dev/urandom > t3.bin; echo $?",
        { limits: { treeBytes: 4 << 20, wallMs: 20_000 } },
      );
      expect(tree.output).toBe(
        "0\nfallocate: fallocate failed: No space left on device\n1\nhead: error writing 'standard output': No space left on device\n1\n" +
          'sandbox: /workspace is full (limit 4 MiB): writes past it failed with "No space left on device".\n',
      );
      expect([tree.exitCode, tree.killed, tree.changedPaths]).toEqual([
        0,
        undefined,
        // fallocate made t2.bin before its allocation failed: an empty file.
        [`${ROOT}/t1.bin`, `${ROOT}/t2.bin`, `${ROOT}/t3.bin`],
      ]);
      await run("rm -f t1.bin t2.bin t3.bin");
    },
  );

  // Without root (or with `treeFs: false`) the tree is a plain directory: sampled every second, and the command
  // stopped over the limit.
  it("stops a command whose tree on disk passes the limit (sampled, without a tree file system)", async () => {
    // Stopped during the sleep by the tree limit: otherwise the 20 s wall-clock limit would (a `wall` kill).
    const tree = await run(
      "head -c 3M /dev/urandom > t1.bin; head -c 3M /dev/urandom > t2.bin; sleep 600; echo not-reached",
      {
        limits: { treeBytes: 4 << 20, wallMs: 20_000 },
      },
      { treeFs: false },
    );
    expect(tree.output).toBe("Command stopped: it wrote more than 4 MiB to /workspace (limit 4 MiB).\n");
    expect(tree.exitCode).toBe(137);
    expect(tree.killed).toBeUndefined();
    await run("rm t1.bin t2.bin");
  });

  it.runIf(asRoot)(
    "runs each command in a cgroup of its own, one core at most, under the sandboxes' shared group",
    async () => {
      const support = sandboxCgroupSupport();
      expect(support).toEqual({ ok: true });
      let pid = 0;
      const seen: string[] = [];
      const result = run(
        "sleep 2; echo done",
        {},
        {
          onSpawn: (p) => {
            pid = p;
          },
        },
      );
      await vi.waitFor(
        () => {
          const groups = readFileSync(`/proc/${pid}/cgroup`, "utf8");
          const cpu = /^\d+:(?:cpu|cpu,cpuacct|cpuacct,cpu|):(\/strata-sandbox\/cmd-\d+-[0-9a-f]{12})$/m.exec(
            groups,
          );
          expect(cpu).not.toBeNull();
          seen.push((cpu as RegExpExecArray)[1]);
        },
        { timeout: 60_000, interval: 50 },
      );
      const group = seen[0];
      const limits = cgroupLimits();
      const v2 = existsSync("/sys/fs/cgroup/cgroup.controllers");
      const base = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/cpu";
      const read = (rel: string) => readFileSync(path.join(base, rel), "utf8").trim();
      if (v2) {
        expect([
          read(`${group}/cpu.max`),
          read("strata-sandbox/cpu.max"),
          read("strata-sandbox/cpu.weight"),
        ]).toEqual(["100000 100000", `${limits.sharedCores * 100000} 100000`, "25"]);
      } else {
        expect([
          read(`${group}/cpu.cfs_quota_us`),
          read("strata-sandbox/cpu.cfs_quota_us"),
          read("strata-sandbox/cpu.shares"),
        ]).toEqual(["100000", String(limits.sharedCores * 100000), "256"]);
      }
      expect((await result).output).toBe("done\n");
      // Removed once the command is over.
      expect(existsSync(path.join(base, group))).toBe(false);
    },
  );

  it("never reads a file over the VFS's file limit: sparse giants are noted, the rest is written back", async () => {
    const rss = process.memoryUsage().rss;
    const result = await run("truncate -s 1500M big.bin; truncate -s 2200M huge.bin; echo ok > keep.txt", {
      limits: { fileBytes: 3 * 1024 ** 3 },
    });
    const grew = process.memoryUsage().rss - rss;
    expect(result.output).toBe(
      "sandbox: big.bin not written back: 1500 MiB is over the 10 MiB file limit\nsandbox: huge.bin not written back: 2200 MiB is over the 10 MiB file limit\n",
    );
    expect(result).toMatchObject({ exitCode: 0, changedPaths: ["/app/keep.txt"] });
    // Far below one of the files (1.5 GB): nothing of them was read.
    expect(grew).toBeLessThan(300 * 1024 * 1024);
    const { vfs, done } = stored();
    try {
      expect(await vfs.readText("/app/keep.txt")).toBe("ok\n");
      expect(await vfs.exists("/app/big.bin")).toBe(false);
      expect(await vfs.exists("/app/huge.bin")).toBe(false);
    } finally {
      await done();
    }
  });

  it("diff: keeps changed files within the flush limit, notes the file that would pass it and goes on", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "strata-diff-"));
    try {
      const tree = await materialiseTree([], "/r", dir);
      writeFileSync(path.join(dir, "a.txt"), "a".repeat(100));
      writeFileSync(path.join(dir, "b.txt"), "b".repeat(100));
      writeFileSync(path.join(dir, "c.txt"), "c".repeat(100));
      writeFileSync(path.join(dir, "d.txt"), "d".repeat(40));
      writeFileSync(path.join(dir, "e.txt"), "e".repeat(101));
      symlinkSync("x".repeat(10), path.join(dir, "l"));
      const diff = await diffTree(tree, { fileBytes: 100, flushBytes: 250 });
      // The symlink's 10 bytes first, then a (110), b (210); c would make 310; d (250) still fits.
      expect(diff.changes.map((c) => c.path)).toEqual(["a.txt", "b.txt", "d.txt", "l"]);
      expect(diff.notes).toEqual([
        "sandbox: c.txt not written back: the command's changed files total more than the 250 bytes write-back limit",
        "sandbox: e.txt not written back: 101 bytes is over the 100 bytes file limit",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops a command that prints more than the output cap", async () => {
    const result = await run("yes 0123456789", { limits: { outputBytes: 100_000 } });
    expect(result.killed?.reason).toBe("output");
    expect(result.killed?.message).toBe(
      "Command stopped: it printed more than 97.7 KiB of output (limit 97.7 KiB).",
    );
    expect(result.output.length).toBeLessThanOrEqual(100_000);
    expect(result.outputBytes).toBeGreaterThan(100_000);
  });

  it("caps the number of processes", async () => {
    // Children that outlive the count (a short one could end and free its slot under load), forked by perl, whose
    // fork fails at once where bash would retry for seconds. Ten processes of the sandbox's user: bwrap's init (pid 1
    // of the sandbox), perl (bash -c execs it) and 8 children.
    const result = await run(
      `perl -e 'my @kids; for (1..20) { my $p = fork(); last unless defined $p; if ($p == 0) { sleep 1000; exit } push @kids, $p } print scalar(@kids), "\\n"; kill "KILL", @kids'`,
      { limits: { processes: 10, wallMs: 20_000 } },
    );
    expect(result.output).toBe("8\n");
  });

  it("bench hook: node -e 0 on a 2,000-file project, materialisation included, with where its time went", async () => {
    // The figure itself (target ≤ 2 s) is measured by `npm run bench` (bench/sections/exec.ts); here, that the
    // hook runs and accounts for its parts: they add up to no more than the whole.
    const { totalMs, timings } = await benchSandboxNodeStart(ws.workspaceId, { files: 2000 });
    const { files, ...parts } = timings;
    expect(files).toBe(2000);
    expect(Object.keys(parts).sort()).toEqual(["diffMs", "loadMs", "materialiseMs", "runMs", "writeBackMs"]);
    expect(Object.values(parts).filter((ms) => !(ms >= 0))).toEqual([]);
    const sum = Object.values(parts).reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThanOrEqual(totalMs);
  });
});
