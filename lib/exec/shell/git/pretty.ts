/**
 * `git log`/`git show` `--pretty`/`--format`: the named formats `oneline`, `short`, `medium`, `full`, and
 * `format:`/`tformat:` strings with git's common placeholders (%H %h %T %t %P %p %an %ae %ad %ar %at %aI %cn %ce
 * %cd %cr %ct %cI %s %b %B %n %%). A bare `--format=<string>` is `tformat:` (a newline after every entry).
 */
import { fatal, formatGitDate, formatZone, short, subjectOf } from "./format";
import type { readCommit } from "./repo";

type Commit = Awaited<ReturnType<typeof readCommit>>;

/** How entries are printed: a function of one commit, and whether a newline ends every entry or separates them. */
export interface Pretty {
  name: "oneline" | "short" | "medium" | "full" | "format";
  render(oid: string, c: Commit, now: number): string;
  /** `format:` separates entries with a newline; `tformat:` terminates each. */
  terminator: boolean;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** git's relative date (`show_date_relative`) of `timestamp` seen at `now` (both seconds). */
export function relativeDate(timestamp: number, now: number): string {
  const diff = now - timestamp;
  if (diff < 0) return "in the future";
  if (diff < 90) return `${plural(diff, "second")} ago`;
  const minutes = Math.floor((diff + 30) / 60);
  if (minutes < 90) return `${plural(minutes, "minute")} ago`;
  const hours = Math.floor((minutes + 30) / 60);
  if (hours < 36) return `${plural(hours, "hour")} ago`;
  const days = Math.floor((hours + 12) / 24);
  if (days < 14) return `${plural(days, "day")} ago`;
  if (days < 70) return `${plural(Math.floor((days + 3) / 7), "week")} ago`;
  if (days < 365) return `${plural(Math.floor((days + 15) / 30), "month")} ago`;
  if (days < 1825) {
    const totalMonths = Math.floor((days * 12 * 2 + 365) / (365 * 2));
    const years = Math.floor(totalMonths / 12);
    const months = totalMonths % 12;
    return months
      ? `${plural(years, "year")}, ${plural(months, "month")} ago`
      : `${plural(years, "year")} ago`;
  }
  return `${plural(Math.floor((days + 183) / 365), "year")} ago`;
}

function iso(timestamp: number, timezoneOffset: number): string {
  const d = new Date((timestamp - timezoneOffset * 60) * 1000).toISOString().slice(0, 19);
  const z = formatZone(timezoneOffset);
  return `${d}${z.slice(0, 3)}:${z.slice(3)}`;
}

/** The message body: everything after the subject paragraph (git's %b). */
function bodyOf(message: string): string {
  const m = message.replace(/^\n+/, "");
  const i = m.search(/\n\s*\n/);
  if (i < 0) return "";
  return `${m
    .slice(i)
    .replace(/^\s*\n/, "")
    .replace(/\n*$/, "")}\n`;
}

function expand(fmt: string, oid: string, c: Commit, now: number): string {
  const who = (p: Commit["author"], k: string) => {
    switch (k) {
      case "n":
        return p.name;
      case "e":
        return p.email;
      case "d":
        return formatGitDate(p.timestamp, p.timezoneOffset);
      case "r":
        return relativeDate(p.timestamp, now);
      case "t":
        return String(p.timestamp);
      case "I":
        return iso(p.timestamp, p.timezoneOffset);
      default:
        return undefined;
    }
  };
  return fmt.replace(/%(a[nedrtI]|c[nedrtI]|[HhTtPpsbBn%])/g, (_m, k: string) => {
    if (k.length === 2) return who(k[0] === "a" ? c.author : c.committer, k[1]) ?? _m;
    switch (k) {
      case "H":
        return oid;
      case "h":
        return short(oid);
      case "T":
        return c.tree;
      case "t":
        return short(c.tree);
      case "P":
        return c.parent.join(" ");
      case "p":
        return c.parent.map(short).join(" ");
      case "s":
        return subjectOf(c.message);
      case "b":
        return bodyOf(c.message);
      case "B":
        return c.message.replace(/^\n+/, "");
      case "n":
        return "\n";
      default:
        return "%";
    }
  });
}

const indent = (message: string) =>
  message
    .replace(/^\n+/, "")
    .replace(/\n+$/, "")
    .split("\n")
    .map((l) => `    ${l}\n`)
    .join("");

/**
 * Parse a `--pretty`/`--format` value (undefined: medium). `oneline` here is `--pretty=oneline` (full id); the
 * `--oneline` flag is `format:%h %s` with terminators.
 * @throws GitExit (128) `fatal: invalid --pretty format: <x>`.
 */
export function parsePretty(value: string | undefined, oneline: boolean): Pretty {
  if (oneline)
    return { name: "oneline", terminator: true, render: (oid, c) => `${short(oid)} ${subjectOf(c.message)}` };
  const v = value ?? "medium";
  const merge = (c: Commit) => (c.parent.length > 1 ? `Merge: ${c.parent.map(short).join(" ")}\n` : "");
  if (v === "oneline")
    return { name: "oneline", terminator: true, render: (oid, c) => `${oid} ${subjectOf(c.message)}` };
  if (v === "medium")
    return {
      name: "medium",
      terminator: true,
      render: (oid, c) =>
        `commit ${oid}\n${merge(c)}Author: ${c.author.name} <${c.author.email}>\nDate:   ${formatGitDate(c.author.timestamp, c.author.timezoneOffset)}\n\n${indent(c.message)}`.replace(
          /\n$/,
          "",
        ),
    };
  if (v === "short")
    return {
      name: "short",
      terminator: true,
      render: (oid, c) =>
        `commit ${oid}\n${merge(c)}Author: ${c.author.name} <${c.author.email}>\n\n    ${subjectOf(c.message)}`,
    };
  if (v === "full")
    return {
      name: "full",
      terminator: true,
      render: (oid, c) =>
        `commit ${oid}\n${merge(c)}Author: ${c.author.name} <${c.author.email}>\nCommit: ${c.committer.name} <${c.committer.email}>\n\n${indent(c.message)}`.replace(
          /\n$/,
          "",
        ),
    };
  const m = /^(t?format):(.*)$/s.exec(v);
  if (m)
    return {
      name: "format",
      terminator: m[1] === "tformat",
      render: (oid, c, now) => expand(m[2], oid, c, now),
    };
  if (v.includes("%"))
    return { name: "format", terminator: true, render: (oid, c, now) => expand(v, oid, c, now) };
  throw fatal(`invalid --pretty format: ${v}`);
}
