/**
 * git's option parsing (parse-options) for the shell's `git`: flags and operands in any order, `--` ending the
 * options (the rest are paths), bundled short flags (`-am msg`), values attached or separate (`-mmsg`,
 * `-m msg`, `--message=msg`, `--message msg`), `-<n>` for a count, and git's refusal texts (exit 129).
 */
import { GitExit } from "./format";

/** One option: its short letter and long names; `value` options take an argument. */
export interface OptionDef {
  short?: string;
  long?: string[];
  value?: boolean;
}

/** What was given: each option's values in order (`true` for a flag), operands, and the paths after `--`. */
export interface ParsedArgs {
  options: Map<string, (string | true)[]>;
  operands: string[];
  /** Operands after `--`, or null when there was no `--`. */
  paths: string[] | null;
  has(name: string): boolean;
  /** The last value given for `name`. */
  value(name: string): string | undefined;
  values(name: string): string[];
}

/**
 * Parse `args` against `defs` (keyed by option name). `numeric` names the option a bare `-<n>` sets
 * (`log -3` = `log -n 3`).
 * @throws GitExit (129) `error: unknown option `x'` / `error: unknown switch `x'` / `error: switch `m' requires a value`, followed by `usage`.
 */
export function parseArgs(
  args: string[],
  defs: Record<string, OptionDef>,
  usage: string,
  numeric?: string,
): ParsedArgs {
  const options = new Map<string, (string | true)[]>();
  const operands: string[] = [];
  let paths: string[] | null = null;
  const refuse = (text: string) => new GitExit(`error: ${text}\nusage: ${usage}\n`, 129);
  const put = (name: string, v: string | true) => options.set(name, [...(options.get(name) ?? []), v]);
  const byShort = new Map(Object.entries(defs).flatMap(([n, d]) => (d.short ? [[d.short, n] as const] : [])));
  const byLong = new Map(
    Object.entries(defs).flatMap(([n, d]) => (d.long ?? []).map((l) => [l, n] as const)),
  );
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (paths) paths.push(arg);
    else if (arg === "--") paths = [];
    else if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const key = arg.slice(2, eq < 0 ? undefined : eq);
      const name = byLong.get(key);
      if (!name) throw refuse(`unknown option \`${key}'`);
      if (!defs[name].value) {
        if (eq >= 0) throw refuse(`option \`${key}' takes no value`);
        put(name, true);
      } else if (eq >= 0) put(name, arg.slice(eq + 1));
      else if (i + 1 < args.length) put(name, args[++i]);
      else throw refuse(`option \`${key}' requires a value`);
    } else if (arg.startsWith("-") && arg !== "-") {
      if (numeric && /^-\d+$/.test(arg)) {
        put(numeric, arg.slice(1));
        continue;
      }
      for (let j = 1; j < arg.length; j++) {
        const name = byShort.get(arg[j]);
        if (!name) throw refuse(`unknown switch \`${arg[j]}'`);
        if (!defs[name].value) {
          put(name, true);
          continue;
        }
        if (j + 1 < arg.length) put(name, arg.slice(j + 1));
        else if (i + 1 < args.length) put(name, args[++i]);
        else throw refuse(`switch \`${arg[j]}' requires a value`);
        break;
      }
    } else operands.push(arg);
  }
  return {
    options,
    operands,
    paths,
    has: (name) => options.has(name),
    value: (name) => {
      const v = options.get(name);
      const last = v?.[v.length - 1];
      return typeof last === "string" ? last : undefined;
    },
    values: (name) => (options.get(name) ?? []).filter((v): v is string => typeof v === "string"),
  };
}
