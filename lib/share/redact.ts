/**
 * Secret redaction for shares (docs/sharing.md, "Redaction"). Node-only: secretlint imports `node:path` and
 * `node:perf_hooks`, so only `runtime = "nodejs"` routes import this file (or `build.ts`, which does). Every string is
 * linted with secretlint's recommended preset (its `filter-comments` rule disabled, so a `secretlint-disable` comment
 * in a shared file cannot keep a secret visible), `no-dotenv` (a `.env` file: every value goes) and
 * `secretlint-rule-pattern` with Strata's named patterns for what the preset misses (JWTs, `sk-…` keys, secret-named
 * assignments and keys' quoted or YAML values, URL passwords, secret query parameters, `Authorization` / `X-Api-Key`
 * headers, Stripe and Google API keys, every value of a `.env.*` file). Each finding's range is replaced by `[redacted:<kind>]`, and so is
 * every other occurrence of the secret a rule names in its message data: secretlint's AWS secret-key rule reports a
 * range that starts at `AWS_SECRET_ACCESS_KEY=` but is only as long as the key, so the range alone leaves the key's
 * tail visible. The owner's own strings (literal, case-sensitive) become `[redacted:owner]`. Many strings are linted
 * in one `lintSource` call (joined, ranges mapped back), so a 2,000-entry branch costs a few calls, not thousands.
 */
import { lintSource } from "@secretlint/core";
import { creator as dotenvRule } from "@secretlint/secretlint-rule-no-dotenv";
import { creator as patternRule } from "@secretlint/secretlint-rule-pattern";
import { creator as presetRule } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";
import { SECRET_NAME } from "./entry-strings";
import { MIN_OWNER_REDACTION } from "./owner-redactions";
import { isSecretValue, type TextKind, textKindOf } from "./value-shape";

export { MIN_OWNER_REDACTION };

/**
 * One string to redact; `filePath` (project-relative) lets path-aware rules (`.env` files) apply. `secretKey`: the
 * value of a secret-named key of structured data (tool-call arguments, custom entry data): replaced whole by
 * `[redacted:SecretKeyValue]` (rule {@link SECRET_KEY_RULE}), whatever it holds.
 */
export interface RedactItem {
  text: string;
  filePath?: string;
  secretKey?: boolean;
}

/** The rule id of a whole value redacted for its secret-named key (structured data; not a secretlint rule). */
export const SECRET_KEY_RULE = "strata/secret-key";

/** One finding in a string: the rule, its kind (message id) and the 1-based line where it starts. */
export interface Finding {
  rule: string;
  kind: string;
  line: number;
}

/** A redacted string and what was redacted in it (in order of position; one per finding). */
export interface RedactedText {
  text: string;
  findings: Finding[];
  /** The redacted text of each line that held a finding (same order as `findings`), at most 160 characters. */
  excerpts: string[];
}

/** Strata's pattern rules (named; the name is the redaction's `kind`). */
export const STRATA_PATTERNS: { name: string; patterns?: string[]; filePathGlobs?: string[] }[] = [
  {
    name: "JWT",
    patterns: ["/\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}/"],
  },
  {
    name: "SecretKeySk",
    patterns: ["/\\bsk-(?:proj-|svcacct-|admin-|live_|test_)?[A-Za-z0-9_-]{20,}/"],
  },
  {
    name: "SecretAssignment",
    patterns: [
      // Dotenv-style NAME=value where NAME says secret (…KEY, …TOKEN, …SECRET, …PASSWORD, …PASSWD, …CREDENTIALS,
      // …PRIVATE…); the value only. Upper-case names anywhere (env var convention), any case at a line's start.
      // `…_PASS` / `…_PWD` only as a whole word (`DB_PASS`, not `BYPASS`).
      "/(?<=(?:^|[^A-Za-z0-9_.])(?:[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS|PRIVATE[A-Z0-9_]*)|(?:[A-Z0-9]+_)*(?:PASS|PWD))[ \\t]*=[ \\t]*[\"']?)[^\\s\"'`,;]{4,}/",
      "/(?<=^[ \\t]*(?:export[ \\t]+)?[A-Za-z0-9_.]*(?:key|token|secret|password|passwd|credentials|private[A-Za-z0-9_]*)[ \\t]*=[ \\t]*[\"']?)[^\\s\"'`,;]{4,}/im",
    ],
  },
  {
    // The preset's PEM rule wants a body of 100+ characters and an END line: a short or cut-off block is caught here.
    name: "PrivateKeyBlock",
    patterns: [
      "/-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\\s\\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|$(?![\\s\\S]))/",
    ],
  },
  {
    // The quoted value of a secret-named key in JSON, YAML or code, any case: `"password": "…"`, `api_key: '…'`,
    // `apiKey = "…"`, `{ clientSecret: "…" }`; the whole text between the quotes.
    name: "SecretKeyValue",
    patterns: [
      `/(?<=${SECRET_NAME}["']?[ \\t]*(?::=|=>|[:=])[ \\t]*(["']))(?:(?!\\1)[^\\\\\\r\\n]|\\\\.)+(?=\\1)/i`,
      // The same inside an escaped string (JSON in a log line or a tool's output): `\"password\": \"…\"`.
      `/(?<=${SECRET_NAME}\\\\["']?[ \\t]*(?::=|=>|[:=])[ \\t]*\\\\(["']))(?:(?!\\\\\\1)[^\\r\\n])+(?=\\\\\\1)/i`,
    ],
  },
  {
    // YAML's unquoted `password: value` at a line's start (or a list item's); the rest of the line. Code that looks
    // alike (`token: string;`, `password: input.value,`) is left alone: a type keyword, or a line ending in , ; { (.
    // Header lines (`Authorization:`, `X-…:`) go by the two header patterns below.
    name: "YamlSecretValue",
    patterns: [
      `/(?<=^[ \\t]*(?:-[ \\t]+)?(?!authorization\\b|x-)[A-Za-z0-9_.-]*${SECRET_NAME}[ \\t]*:[ \\t]+)(?![\\s"'|>&*!]|(?:string|number|boolean|null|undefined|any|unknown)\\b|[^\\r\\n]*[,;{(][ \\t]*$)[^\\r\\n]*?(?=[ \\t]*$)/im`,
    ],
  },
  {
    // `scheme://user:password@host` in any scheme, an empty user too (`redis://:pw@host`); the password only.
    name: "UrlCredentials",
    patterns: ["/(?<=\\b[A-Za-z][A-Za-z0-9+.-]*:\\/\\/[^\\s:@\\/?#]*:)[^\\s@\\/?#]+(?=@)/"],
  },
  {
    // `?access_token=…`, `&token=…`, `api_key=…` (and refresh/id tokens, client secrets, passwords) in a query.
    name: "SecretQueryParam",
    patterns: [
      "/(?<=[?&;](?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|password)=)[^&#\\s\"'<>]+/i",
    ],
  },
  {
    // `Authorization: Bearer …` / `Basic …` / `Token …` (or no scheme), as a header line, a curl flag or a JSON member.
    name: "AuthorizationHeader",
    patterns: [
      "/(?<=\\bAuthorization[\"']?[ \\t]*[:=][ \\t]*[\"']?(?:(?:Bearer|Basic|Token)[ \\t]+)?)(?!(?:Bearer|Basic|Token)\\b)[A-Za-z0-9._~+\\/=-]{4,}/i",
    ],
  },
  {
    // `X-Api-Key: …` (and `X-Auth-Token`, `X-Access-Token`) headers.
    name: "ApiKeyHeader",
    patterns: ["/(?<=\\bX-(?:Api-Key|Auth-Token|Access-Token)[\"']?[ \\t]*:[ \\t]*[\"']?)[^\\s\"',;]{4,}/i"],
  },
  {
    // Command-line flags: `--password=…`, `--password …`, `--token …`, `--api-key …`, `--client-secret …` (any case; a
    // quoted value whole, quotes included), and the password of curl's `-u user:password` / `--user user:password`.
    name: "SecretCliFlag",
    patterns: [
      "/(?<=(?:^|[\\s\"'])--?[A-Za-z0-9-]*(?:password|passwd|token|secret|api-?key)(?:=|[ \\t]+))(?:\"[^\"\\r\\n]+\"|'[^'\\r\\n]+'|(?![-\"'])[^\\s\"']{3,})/i",
      "/(?<=(?:^|\\s)(?:-u|--user)(?:=|[ \\t]+)[\"']?[^\\s:\"'@]+:)[^\\s\"']+/",
    ],
  },
  {
    // Stripe secret and restricted keys, live and test.
    name: "StripeKey",
    patterns: ["/\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/"],
  },
  {
    // Google API keys: `AIza` and 35 more characters.
    name: "GoogleApiKey",
    patterns: ["/\\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/"],
  },
  {
    // Docker's `config.json`: `"auths": { "registry": { "auth": "<base64 of user:password>" } }`.
    name: "DockerAuth",
    patterns: ['/(?<="auth"[ \\t]*:[ \\t]*")[A-Za-z0-9+\\/=]{8,}(?=")/'],
  },
  {
    // PostgreSQL's password file: `hostname:port:database:username:password` per line; the password.
    name: "PgpassPassword",
    filePathGlobs: ["**/.pgpass", ".pgpass"],
    patterns: ["/(?<=^[^:#\\s][^:\\s]*:[^:\\s]+:[^:\\s]+:[^:\\s]+:).+$/m"],
  },
  {
    name: "DotenvValue",
    filePathGlobs: ["**/.env*", ".env*"],
    patterns: ["/(?<=^[ \\t]*(?:export[ \\t]+)?[A-Za-z_][A-Za-z0-9_.-]*[ \\t]*=[ \\t]*)\\S.*$/m"],
  },
];

const CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: presetRule.meta.id,
      rule: presetRule,
      rules: [
        { id: "@secretlint/secretlint-rule-filter-comments", disabled: true },
        // Off by default in the preset: access key ids (`AKIA…`) and account ids are redacted too.
        { id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } },
      ],
    },
    { id: patternRule.meta.id, rule: patternRule, options: { patterns: STRATA_PATTERNS } },
  ],
} as SecretLintCoreConfig;

const DOTENV_CONFIG: SecretLintCoreConfig = {
  rules: [...CONFIG.rules, { id: dotenvRule.meta.id, rule: dotenvRule }],
} as SecretLintCoreConfig;

/** A range to mask in the joined source, with what found it. */
interface Hit {
  start: number;
  end: number;
  rule: string;
  kind: string;
}

const SEPARATOR = "\n\n";
/** Files whose rules go by their path (`.env*`, `.pgpass`): linted one by one under their own name, never batched. */
const LINTED_ALONE = /(^|\/)(\.env[^/]*|\.pgpass)$/;
/** Characters per `lintSource` call when batching (bounds the joined string). */
const BATCH_CHARS = 4 * 1024 * 1024;

/** The pattern rule's name out of its message `found matching <name>: …`. */
function patternKind(message: string): string {
  return /^found matching ([A-Za-z]+):/.exec(message)?.[1] ?? "Pattern";
}

/** The secret values a message names in its data (`KEY`, `ID`, `URI`, …), to mask every occurrence of each. */
function namedSecrets(data: unknown): string[] {
  if (!data || typeof data !== "object") return [];
  return Object.values(data as Record<string, unknown>).filter(
    (v): v is string => typeof v === "string" && v.length >= 8,
  );
}

/** Lint one source; every hit (range plus every other occurrence of a named secret). */
async function lint(content: string, filePath: string | undefined): Promise<Hit[]> {
  const dotenv = filePath !== undefined && /(^|\/)\.env[^/]*$/.test(filePath);
  const result = await lintSource({
    source: { content, filePath: filePath ?? "strata-share.txt", contentType: "text", ext: "" },
    options: { config: dotenv ? DOTENV_CONFIG : CONFIG, noPhysicFilePath: false },
  });
  const hits: Hit[] = [];
  for (const m of result.messages) {
    const rule = m.ruleId;
    const isPattern = rule === patternRule.meta.id;
    const isDotenvFile = rule === dotenvRule.meta.id;
    if (isDotenvFile) continue; // the DotenvValue pattern masks each value; the file itself stays readable
    const kind = isPattern ? patternKind(m.message) : (m.messageId ?? "Secret");
    hits.push({ start: m.range[0], end: m.range[1], rule, kind });
    if (isPattern) continue;
    for (const secret of namedSecrets(m.data)) {
      for (let at = content.indexOf(secret); at >= 0; at = content.indexOf(secret, at + secret.length))
        hits.push({ start: at, end: at + secret.length, rule, kind });
    }
  }
  return hits;
}

/**
 * The rules that find a value by the name before it: the value itself must then look like a secret. In code, the
 * assignment rules count a quoted literal only (a bare value is an expression); the others (headers, flags, URLs,
 * query parameters) live in strings and comments there, so any literal counts if it looks like a credential.
 */
const NAME_BASED = new Map<string, "quoted" | "any">([
  ["SecretAssignment", "quoted"],
  ["SecretKeyValue", "quoted"],
  ["YamlSecretValue", "quoted"],
  ["AuthorizationHeader", "any"],
  ["ApiKeyHeader", "any"],
  ["SecretCliFlag", "any"],
  ["UrlCredentials", "any"],
  ["SecretQueryParam", "any"],
]);

/**
 * `hits` (offsets in `text`) without the name-based ones whose value is code, not a secret (`value-shape.ts`), and
 * each clipped before the closing quote of the string it starts in (the preset's connection-string rule runs to the
 * next space: `"postgres://…"` would lose its closing quote, and the shared code its syntax).
 */
function secretValuesOnly(text: string, hits: Hit[], kind: TextKind): Hit[] {
  for (const h of hits) {
    const quote = text[h.start - 1];
    if ((quote === '"' || quote === "'") && h.end - h.start > 1 && text[h.end - 1] === quote) h.end--;
  }
  return hits.filter((h) => {
    const inCode = h.rule === patternRule.meta.id ? NAME_BASED.get(h.kind) : undefined;
    if (!inCode) return true;
    const before = text[h.start - 1];
    return isSecretValue(text.slice(h.start, h.end), before === '"' || before === "'", kind, inCode);
  });
}

/** Ranges of every literal occurrence of each owner string. */
function ownerHits(content: string, owner: readonly string[]): Hit[] {
  const hits: Hit[] = [];
  for (const s of owner) {
    // Never reached through the routes: `checkOwnerRedactions` refuses short strings (400) before any preview.
    if (s.length < MIN_OWNER_REDACTION) continue;
    for (let at = content.indexOf(s); at >= 0; at = content.indexOf(s, at + s.length))
      hits.push({ start: at, end: at + s.length, rule: "owner", kind: "owner" });
  }
  return hits;
}

/**
 * Apply `hits` (offsets in `text`) to `text`: overlapping ranges merge into one replacement named by the first
 * (earliest-starting) hit. @returns the redacted text and one finding per merged range.
 */
export function applyHits(
  text: string,
  hits: readonly { start: number; end: number; rule: string; kind: string }[],
): RedactedText {
  if (hits.length === 0) return { text, findings: [], excerpts: [] };
  const sorted = [...hits].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Hit[] = [];
  for (const h of sorted) {
    const last = merged[merged.length - 1];
    if (last && h.start < last.end) last.end = Math.max(last.end, h.end);
    else merged.push({ ...h });
  }
  let out = "";
  let pos = 0;
  const starts: number[] = [];
  const findings: Finding[] = [];
  for (const h of merged) {
    out += text.slice(pos, h.start);
    starts.push(out.length);
    out += `[redacted:${h.kind}]`;
    pos = h.end;
    findings.push({ rule: h.rule, kind: h.kind, line: lineAt(text, h.start) });
  }
  out += text.slice(pos);
  const excerpts = starts.map((at) => {
    const from = out.lastIndexOf("\n", at - 1) + 1;
    const to = out.indexOf("\n", at);
    const line = out.slice(from, to < 0 ? undefined : to);
    return line.length > 160 ? `${line.slice(0, 159)}…` : line;
  });
  return { text: out, findings, excerpts };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Redact `items` (same order out): secretlint findings and `owner` strings. Items without a `.env*` file path are
 * linted together in batches of about 4 MiB, joined by blank lines, with each hit clipped to the items it touches.
 */
export async function redactTexts(
  items: readonly RedactItem[],
  owner: readonly string[] = [],
): Promise<RedactedText[]> {
  const out: RedactedText[] = new Array(items.length);
  const batched: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const { text, filePath } = items[i];
    if (text === "") out[i] = { text, findings: [], excerpts: [] };
    else if (items[i].secretKey) {
      const whole = "[redacted:SecretKeyValue]";
      out[i] = {
        text: whole,
        findings: [{ rule: SECRET_KEY_RULE, kind: "SecretKeyValue", line: 1 }],
        excerpts: [whole],
      };
    } else if (filePath !== undefined && LINTED_ALONE.test(filePath))
      out[i] = applyHits(text, [
        ...secretValuesOnly(text, await lint(text, filePath), "config"),
        ...ownerHits(text, owner),
      ]);
    else batched.push(i);
  }
  for (let b = 0; b < batched.length; ) {
    const group: number[] = [];
    let chars = 0;
    while (
      b < batched.length &&
      (group.length === 0 || chars + items[batched[b]].text.length <= BATCH_CHARS)
    ) {
      chars += items[batched[b]].text.length + SEPARATOR.length;
      group.push(batched[b++]);
    }
    const offsets: number[] = [];
    let joined = "";
    for (const i of group) {
      if (joined) joined += SEPARATOR;
      offsets.push(joined.length);
      joined += items[i].text;
    }
    const hits = await lint(joined, undefined);
    const perItem: Hit[][] = group.map(() => []);
    for (const h of hits) {
      // Items whose span the hit touches (a multi-line match may cross a separator): clip it to each.
      for (let g = upperBound(offsets, h.start) - 1; g < group.length && g >= 0; g++) {
        const from = offsets[g];
        const to = from + items[group[g]].text.length;
        if (from >= h.end) break;
        const start = Math.max(h.start, from);
        const end = Math.min(h.end, to);
        if (end > start) perItem[g].push({ ...h, start: start - from, end: end - from });
      }
    }
    group.forEach((i, g) => {
      const { text, filePath } = items[i];
      const found = secretValuesOnly(text, perItem[g], textKindOf(filePath));
      out[i] = applyHits(text, [...found, ...ownerHits(text, owner)]);
    });
  }
  return out;
}

/** Index of the first offset greater than `value` (offsets ascending). */
function upperBound(offsets: readonly number[], value: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
