// `npm start`'s check of the sandbox's dependency (docs/sandbox.md): bubblewrap (`/usr/bin/bwrap`). On Linux as root
// a missing bubblewrap is installed with apt-get; otherwise the start goes on and says how to install it (workspaces
// with the sandbox on then get "The sandbox needs bubblewrap…" from the bash tool). Never fatal.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * Make sure bubblewrap is there, or say what to do.
 * @param log one-line logger (`[strata] …`).
 * @returns whether /usr/bin/bwrap exists afterwards.
 */
export function ensureBubblewrap(log) {
  if (process.platform !== "linux") {
    log("the sandbox (docs/sandbox.md) needs Linux with bubblewrap; on this system workspaces cannot use it");
    return false;
  }
  if (existsSync("/usr/bin/bwrap") || existsSync("/usr/local/bin/bwrap")) return true;
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync("/usr/bin/apt-get");
  if (!isRoot || !hasApt) {
    log(
      `bubblewrap is not installed: the sandbox stays unavailable until you run ${hasApt ? "sudo apt-get install -y bubblewrap" : "your package manager's install of bubblewrap"} (docs/sandbox.md)`,
    );
    return false;
  }
  log("installing bubblewrap for the sandbox (apt-get install -y bubblewrap)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const install = spawnSync("apt-get", ["install", "-y", "-qq", "bubblewrap"], { stdio: "inherit", env });
  const ok = update.status === 0 && install.status === 0 && existsSync("/usr/bin/bwrap");
  if (!ok)
    log("installing bubblewrap failed (see above); the sandbox stays unavailable until it is installed");
  return ok;
}
