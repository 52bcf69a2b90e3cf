/**
 * The rules of share redaction (docs/sharing.md, "Redaction rules") and the one call into secretlint: its recommended
 * preset (the `filter-comments` rule disabled, so a `secretlint-disable` comment in a shared file cannot keep a secret
 * visible; AWS access key ids on), `no-dotenv` for `.env` files and `secretlint-rule-pattern` with Strata's named
 * patterns for what the preset misses. `lintHits` returns every hit of one source, each secret a rule names in its
 * message data masked at every occurrence (secretlint's AWS secret-key range is only as long as the key but starts at
 * the name, leaving the key's tail visible otherwise); `secretValuesOnly` then drops the name-based hits whose value is
 * code, not a secret (`value-shape.ts`). Node-only: secretlint imports `node:path` and `node:perf_hooks`.
 */
import { lintSource } from "@secretlint/core";
import { creator as dotenvRule } from "@secretlint/secretlint-rule-no-dotenv";
import { creator as patternRule } from "@secretlint/secretlint-rule-pattern";
import { creator as presetRule } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";
import { SECRET_NAME } from "./entry-strings";
import { isSecretValue, type TextKind } from "./value-shape";

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
export interface Hit {
  start: number;
  end: number;
  rule: string;
  kind: string;
}

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
export async function lintHits(content: string, filePath: string | undefined): Promise<Hit[]> {
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
export const NAME_BASED = new Map<string, "quoted" | "any">([
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
export function secretValuesOnly(text: string, hits: Hit[], kind: TextKind): Hit[] {
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

/** Whether a hit's rule finds a secret by its shape (not by the name before it): an encoded run counts on these. */
export function isShapeHit(h: Hit): boolean {
  return !(h.rule === patternRule.meta.id && NAME_BASED.has(h.kind));
}
