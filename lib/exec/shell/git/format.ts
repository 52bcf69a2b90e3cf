/**
 * Text formats of git's porcelain that the shell's `git` reproduces: its exit conditions (`fatal:` 128,
 * `error:` 1, usage 129), the default date format, commit message clean-up, abbreviated object names and
 * paths shown relative to the working directory.
 */

/** A git command's early exit: `stderr` (and `stdout`) as git prints them, and its exit code. */
export class GitExit extends Error {
  constructor(
    readonly stderr: string,
    readonly exitCode: number,
    readonly stdout = "",
  ) {
    super(stderr.trim());
  }
}

/** `fatal: <message>` with exit code 128, as git dies. */
export const fatal = (message: string) => new GitExit(`fatal: ${message}\n`, 128);
/** `error: <message>` with exit code 1. */
export const failure = (message: string, exitCode = 1) => new GitExit(`error: ${message}\n`, exitCode);

/** git's text for a revision or path it cannot find (exit 128). */
export function unknownRevision(arg: string): GitExit {
  return fatal(
    `ambiguous argument '${arg}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
  );
}

/** Abbreviated object name: git's default 7 hex digits. */
export const short = (oid: string) => oid.slice(0, 7);

/** The null object id git shows for a missing side of a diff. */
export const NULL_OID = "0".repeat(40);

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `+0100` for isomorphic-git's `timezoneOffset` (minutes, negative east of UTC like `getTimezoneOffset`). */
export function formatZone(timezoneOffset: number): string {
  const east = -timezoneOffset;
  const abs = Math.abs(east);
  return `${east < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

/**
 * git's default date format (`Tue Nov 14 22:13:20 2023 +0000`) of `timestamp` (seconds since the epoch),
 * shown in the commit's own zone.
 */
export function formatGitDate(timestamp: number, timezoneOffset: number): string {
  const d = new Date((timestamp - timezoneOffset * 60) * 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${time} ${d.getUTCFullYear()} ${formatZone(timezoneOffset)}`;
}

/**
 * git's `whitespace` clean-up of a message given with `-m`: trailing spaces of each line removed, leading and
 * trailing blank lines dropped, runs of blank lines collapsed to one, one final newline ("" when empty).
 */
export function cleanupMessage(message: string): string {
  const lines = message.split("\n").map((l) => l.replace(/\s+$/, ""));
  const out: string[] = [];
  for (const line of lines) {
    if (line === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

/** The subject of a commit message: its first paragraph, lines joined with spaces (git's `%s`). */
export function subjectOf(message: string): string {
  const paragraph = message.replace(/^\n+/, "").split(/\n\s*\n/)[0] ?? "";
  return paragraph
    .split("\n")
    .map((l) => l.trim())
    .join(" ")
    .trim();
}

/** `path` (relative to the repository's top) as git shows it from the directory `prefix` ("" or "sub/dir/"). */
export function relativeTo(prefix: string, path: string): string {
  if (prefix === "") return path;
  const from = prefix.replace(/\/$/, "").split("/");
  const to = path.split("/");
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  if (i === from.length) return to.slice(i).join("/");
  return [...from.slice(i).map(() => ".."), ...to.slice(i)].join("/");
}

/** A path git would quote (control characters, `"`, `\` or bytes over 0x7f), quoted its way (`core.quotePath`). */
export function quotePath(path: string): string {
  if (!/[\u0000-\u001f"\\\u007f-\uffff]/.test(path)) return path;
  const bytes = new TextEncoder().encode(path);
  const named: Record<number, string> = {
    7: "a",
    8: "b",
    9: "t",
    10: "n",
    11: "v",
    12: "f",
    13: "r",
    34: '"',
    92: "\\",
  };
  let out = "";
  for (const b of bytes) {
    if (named[b]) out += `\\${named[b]}`;
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(b);
  }
  return `"${out}"`;
}
