/**
 * The local `SandboxBackend`: Debian's bubblewrap. The command runs as `bash -c` inside
 * `bwrap --unshare-all` (its own user, pid, network, ipc, uts and cgroup namespaces: no network at all, not
 * even the host's loopback), seeing only read-only system directories (/usr and its merged-usr links, a few
 * /etc files and a made-up /etc/passwd), a fresh /proc, a read-only /dev and root, size-capped tmpfs /tmp and
 * /dev/shm (together the memory cap), and the materialised tree writable at /workspace. When the service runs as root, each command runs as a user of its own (uid 200000 + slot,
 * through `setpriv`), so the process cap counts only its processes and the host sees an unprivileged uid.
 *
 * Limits: wall clock (timer, SIGKILL of the process group; `--die-with-parent` takes the sandbox's pid
 * namespace down with it), CPU (all of the command's processes, sampled from /proc every 250 ms; RLIMIT_CPU
 * per process as a backstop), memory (RLIMIT_DATA per process: unlike RLIMIT_AS it leaves V8's and
 * WebAssembly's address-space reservations alone), processes (RLIMIT_NPROC, counted in the sandbox's own
 * user namespace), output (stop reading and kill), file size (RLIMIT_FSIZE), the tree's size on disk (sampled
 * every second, kill); execute.ts spawns the command and enforces them. See docs/sandbox.md.
 *
 * Node-only (lib/exec/service/).
 */
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { chmod, lchown, lstat, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { threadId } from "node:worker_threads";
import type { SandboxBackend, SandboxCommand, SandboxOutcome } from "./backend";
import { commandCgroup, inCgroup } from "./cgroup";
import { execute } from "./execute";

const BWRAP_PATHS = ["/usr/bin/bwrap", "/usr/local/bin/bwrap"];
const SETPRIV = "/usr/bin/setpriv";
const PRLIMIT = "/usr/bin/prlimit";
/** The stack of every process and thread in the sandbox (bytes; RLIMIT_STACK). */
export const SANDBOX_STACK_BYTES = 2 * 1024 * 1024;
/** The sandbox's user when the service runs as root (RLIMIT_NPROC counts it per user namespace, so per command). */
const SANDBOX_UID = 200_000;
/** Host /etc entries the toolchains need (the dynamic loader's cache, Debian's alternatives links, time zone). */
const ETC_ENTRIES = ["ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime"];

/** The environment every command starts from (the request's env is added on top; the service's never). */
export const SANDBOX_BASE_ENV: Readonly<Record<string, string>> = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/tmp/home",
  LANG: "C.UTF-8",
  TERM: "dumb",
  CI: "1",
  NO_COLOR: "1",
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
  npm_config_cache: "/tmp/home/.npm",
  PYTHONDONTWRITEBYTECODE: "1",
  PYTEST_ADDOPTS: "-p no:cacheprovider",
};

/** The bubblewrap backend. One per service; safe for concurrent commands. */
export class BwrapBackend implements SandboxBackend {
  readonly name = "bwrap";
  private readonly bwrap = BWRAP_PATHS.find((p) => existsSync(p));
  private readonly asRoot = process.getuid?.() === 0;
  private probe?: Promise<{ ok: true } | { ok: false; reason: string }>;
  private etcDirs = new Map<number, Promise<string>>();

  available(): Promise<{ ok: true } | { ok: false; reason: string }> {
    this.probe ??= this.runProbe();
    return this.probe;
  }

  treeOwner(): { uid: number; gid: number } | undefined {
    return this.asRoot ? { uid: SANDBOX_UID, gid: SANDBOX_UID } : undefined;
  }

  /**
   * Run `command` (see `SandboxBackend.run`); the tree must belong to `treeOwner()`.
   * @throws Error "The sandbox needs bubblewrap, which is not installed…" and the other `available` reasons.
   */
  async run(command: SandboxCommand, signal?: AbortSignal): Promise<SandboxOutcome> {
    const ready = await this.available();
    if (!ready.ok) throw new Error(ready.reason);
    return this.runChecked(command, signal);
  }

  private async runChecked(command: SandboxCommand, signal?: AbortSignal): Promise<SandboxOutcome> {
    const owner = this.treeOwner();
    const uid = owner?.uid ?? process.getuid?.() ?? 1000;
    const gid = owner?.gid ?? process.getgid?.() ?? 1000;
    // CPU and disk I/O: a cgroup of the command's own under the sandboxes' shared one (cgroup.ts).
    const group = commandCgroup(path.dirname(command.treeDir));
    try {
      const argv = inCgroup(group, await this.argv(command, uid, gid));
      const env = { ...SANDBOX_BASE_ENV, ...command.env } as unknown as NodeJS.ProcessEnv;
      return await execute(argv, env, command, signal);
    } finally {
      await group?.remove();
    }
  }

  private async argv(command: SandboxCommand, uid: number, gid: number): Promise<string[]> {
    const etc = await this.etcDir(uid, gid);
    const args: string[] = [];
    if (this.asRoot)
      args.push(SETPRIV, `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--no-new-privs");
    args.push(
      this.bwrap as string,
      "--unshare-all",
      // Explicit, for --disable-userns: no nested user namespace (it could mount a tmpfs outside every cap).
      "--unshare-user",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
      "--cap-drop",
      "ALL",
    );
    args.push("--hostname", "sandbox", "--ro-bind", "/usr", "/usr");
    for (const dir of ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"]) {
      const link = systemLink(dir);
      if (link === null) continue;
      if (link) args.push("--symlink", link, dir);
      else args.push("--ro-bind", dir, dir);
    }
    for (const name of ETC_ENTRIES) args.push("--ro-bind-try", `/etc/${name}`, `/etc/${name}`);
    for (const name of ["passwd", "group", "hosts", "nsswitch.conf"])
      args.push("--ro-bind", path.join(etc, name), `/etc/${name}`);
    const { limits } = command;
    const tmpfs = tmpfsBytes(limits.memoryMb);
    args.push("--proc", "/proc", "--dev", "/dev");
    args.push("--size", String(tmpfs.shm), "--tmpfs", "/dev/shm");
    args.push("--size", String(tmpfs.tmp), "--tmpfs", "/tmp", "--dir", "/tmp/home");
    args.push("--bind", command.treeDir, "/workspace");
    // The root and /dev are tmpfs of half the host's memory: read-only once everything is mounted (the
    // device nodes stay usable; /dev/shm, /dev/pts, /tmp and /workspace are mounts of their own).
    args.push("--remount-ro", "/dev", "--remount-ro", "/");
    args.push("--chdir", command.cwd ? `/workspace/${command.cwd}` : "/workspace");
    const cpuSeconds = Math.ceil(limits.cpuMs / 1000) + 1;
    args.push("--", PRLIMIT, `--cpu=${cpuSeconds}`, `--data=${limits.memoryMb * 1024 * 1024}`);
    // A thread's stack is as large as RLIMIT_STACK (glibc) and counts against RLIMIT_DATA: at the default 8 MiB, a
    // Python test suite's 64th thread failed ("can't start new thread"). 2 MiB stacks give 200 threads in 512 MiB.
    args.push(`--fsize=${limits.fileBytes}`, `--stack=${SANDBOX_STACK_BYTES}`);
    args.push(`--nproc=${limits.processes}`, "--core=0", "--", "/bin/bash", "-c", command.command);
    return args;
  }

  /**
   * A directory with the made-up passwd/group/hosts/nsswitch.conf of `uid`: `strata-sandbox-etc-<service uid>-<uid>`
   * in the temp dir (one per user, reused across starts), or a fresh one when that name is not a directory of
   * ours that only we can write (never writing into a directory someone else made).
   */
  private etcDir(uid: number, gid: number): Promise<string> {
    let dir = this.etcDirs.get(uid);
    if (!dir) {
      dir = (async () => {
        const me = process.getuid?.() ?? -1;
        let made = path.join(tmpdir(), `strata-sandbox-etc-${me}-${uid}`);
        await mkdir(made, { mode: 0o755 }).catch(() => undefined);
        const st = await lstat(made).catch(() => undefined);
        if (!st?.isDirectory() || st.uid !== me || st.mode & 0o022)
          made = await mkdtemp(path.join(tmpdir(), "strata-sandbox-etc-"));
        // Readable by the sandbox's user (bwrap opens the sources as it).
        await chmod(made, 0o755);
        const files: Record<string, string> = {
          passwd: `root:x:0:0:root:/root:/bin/bash\nsandbox:x:${uid}:${gid}:Strata sandbox:/tmp/home:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
          group: `root:x:0:\nsandbox:x:${gid}:\nnogroup:x:65534:\n`,
          hosts: "127.0.0.1 localhost sandbox\n::1 localhost\n",
          "nsswitch.conf": "passwd: files\ngroup: files\nhosts: files\n",
        };
        // Written aside and renamed: a sandbox starting meanwhile (another worker) reads a whole file.
        for (const [name, text] of Object.entries(files)) {
          const aside = path.join(made, `.${name}.${process.pid}.${threadId}`);
          await writeFile(aside, text, { mode: 0o644 });
          await rename(aside, path.join(made, name));
        }
        return made;
      })();
      this.etcDirs.set(uid, dir);
    }
    return dir;
  }

  private async runProbe(): Promise<{ ok: true } | { ok: false; reason: string }> {
    if (process.platform !== "linux")
      return {
        ok: false,
        reason: `The sandbox needs Linux (bubblewrap); this service runs on ${process.platform}.`,
      };
    if (!this.bwrap) {
      return {
        ok: false,
        reason:
          "The sandbox needs bubblewrap, which is not installed: run `sudo apt-get install -y bubblewrap` (Debian/Ubuntu) and try again.",
      };
    }
    if (this.asRoot && !existsSync(SETPRIV))
      return {
        ok: false,
        reason: "The sandbox needs setpriv (util-linux): run `apt-get install -y util-linux`.",
      };
    const dir = await mkdtemp(path.join(tmpdir(), "strata-sandbox-probe-"));
    const owner = this.treeOwner();
    if (owner) await lchown(dir, owner.uid, owner.gid);
    try {
      const outcome = await this.runChecked({
        command: "exit 0",
        treeDir: dir,
        cwd: "",
        env: {},
        limits: {
          wallMs: 10_000,
          cpuMs: 5_000,
          memoryMb: 256,
          outputBytes: 65_536,
          processes: 16,
          fileBytes: 1 << 20,
          treeBytes: 1 << 20,
        },
      }).catch((error: Error) => ({ exitCode: -1, output: error.message }));
      if (outcome.exitCode === 0) return { ok: true };
      return {
        ok: false,
        reason: `bubblewrap cannot create a sandbox here (user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1): ${outcome.output.trim()}`,
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** Host `/bin`-style entry: its symlink target (merged /usr), "" for a real directory, null when absent. */
function systemLink(dir: string): string | "" | null {
  try {
    const st = lstatSync(dir);
    if (st.isSymbolicLink()) return readlinkSync(dir);
    return st.isDirectory() ? "" : null;
  } catch {
    return null;
  }
}

/**
 * Sizes of the sandbox's writable tmpfs mounts, bytes: together the memory cap (tmpfs pages are memory no
 * RLIMIT counts). `/dev/shm` gets an eighth, at most 64 MiB; `/tmp` the rest.
 */
export function tmpfsBytes(memoryMb: number): { tmp: number; shm: number } {
  const cap = memoryMb * 1024 * 1024;
  const shm = Math.min(64 * 1024 * 1024, Math.floor(cap / 8 / 4096) * 4096);
  return { tmp: cap - shm, shm };
}
