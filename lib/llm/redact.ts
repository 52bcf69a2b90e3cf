/**
 * Secrets out of the context preview (context-preview.ts): `payload.url` without user info and query string, every
 * secret of the server environment replaced by `[redacted]` in any string or key, and key-shaped strings (provider
 * API keys, GitHub/Slack/AWS tokens, Strata access tokens) masked the same way wherever they appear — also in the
 * payload's body and the messages, where a pasted key would otherwise be printed. The capture itself uses
 * placeholder keys, so no configured key should ever reach the preview; this is the second line.
 */
import type { CapturedPayload } from "@/lib/llm/capture-payload";
import { type Env, PROVIDER_ENV, PROVIDERS } from "@/lib/llm/models";

/** What a masked secret reads as. */
export const REDACTED = "[redacted]";

/** Environment variables whose values are secrets: names ending in `_KEY`, `_TOKEN` or `_SECRET`. */
const SECRET_ENV_NAME = /_(?:KEY|TOKEN|SECRET)$/i;
/** Environment variables holding a base URL: their query string and user info are secrets. */
const BASE_URL_ENV_NAME = /_BASE_URL$/i;
/** Shorter values are not redacted (they would rewrite ordinary words and numbers of the output). */
const MIN_SECRET_LENGTH = 6;

/** The query string (whole and per value) and the user info of a URL, raw and percent-decoded. */
function urlSecrets(url: string): string[] {
  const out: string[] = [];
  const add = (v: string) => {
    out.push(v);
    try {
      out.push(decodeURIComponent(v.replace(/\+/g, " ")));
    } catch {
      // not percent-encoded
    }
  };
  const hash = url.indexOf("#");
  const noHash = hash === -1 ? url : url.slice(0, hash);
  const q = noHash.indexOf("?");
  if (q !== -1) {
    const query = noHash.slice(q + 1);
    add(query);
    for (const pair of query.split("&")) {
      const eq = pair.indexOf("=");
      if (eq !== -1) add(pair.slice(eq + 1));
    }
  }
  if (hash !== -1) add(url.slice(hash + 1));
  const userInfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(url)?.[1];
  if (userInfo) {
    add(userInfo);
    for (const part of userInfo.split(":")) add(part);
  }
  return out;
}

/**
 * The secrets of `env` that must never be printed, longest first: every provider API key, the value of every
 * variable whose name ends in `_KEY`, `_TOKEN` or `_SECRET`, and the query string, fragment and user info of
 * every `*_BASE_URL` (raw and decoded); values shorter than 6 characters are left out (a key such as `test`
 * would otherwise mask that word everywhere; no real key is that short).
 */
export function envSecrets(env: Env): string[] {
  const out = new Set<string>();
  for (const p of PROVIDERS) {
    const key = env[PROVIDER_ENV[p].apiKey];
    if (key) out.add(key.trim());
  }
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (SECRET_ENV_NAME.test(name)) {
      out.add(value);
      out.add(value.trim());
    } else if (BASE_URL_ENV_NAME.test(name)) for (const v of urlSecrets(value.trim())) out.add(v);
  }
  return [...out].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** A URL for printing: without user info, its query string replaced by `?[redacted]`, no fragment. */
export function redactUrl(url: string): string {
  const hash = url.indexOf("#");
  const noHash = hash === -1 ? url : url.slice(0, hash);
  const q = noHash.indexOf("?");
  const base = (q === -1 ? noHash : noHash.slice(0, q)).replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1");
  return q === -1 ? base : `${base}?[redacted]`;
}

/**
 * Key-shaped strings masked wherever they appear, even when the environment does not hold them (a key pasted into
 * a prompt or a file the model read): Anthropic / OpenAI `sk-…` (20+ characters after `sk-`), Google `AIza…` (35),
 * GitHub `ghp_` / `gho_` / `ghu_` / `ghs_` / `ghr_` (36+) and `github_pat_…`, Slack `xox[abprs]-…`, AWS access key
 * ids `AKIA…` (16), Strata access tokens `strata_…` (32+). Each must not follow a letter, digit, `_` or `-`.
 */
export const KEY_LIKE_PATTERNS: readonly RegExp[] = [
  /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g,
  /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}/g,
  /(?<![A-Za-z0-9_-])gh[pousr]_[A-Za-z0-9]{36,}/g,
  /(?<![A-Za-z0-9_-])github_pat_[A-Za-z0-9_]{20,}/g,
  /(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,}/g,
  /(?<![A-Za-z0-9_-])AKIA[0-9A-Z]{16}(?![A-Za-z0-9])/g,
  /(?<![A-Za-z0-9_-])strata_[A-Za-z0-9]{32,}/g,
];

/** `text` with every match of {@link KEY_LIKE_PATTERNS} replaced by `[redacted]`. */
export function maskKeyLikeStrings(text: string): string {
  let out = text;
  for (const pattern of KEY_LIKE_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/**
 * `value` (a JSON value) with its `payload.url` passed through {@link redactUrl}, every occurrence of a secret of
 * `env` ({@link envSecrets}, longest first) in any string or object key replaced by `[redacted]`, then every
 * key-shaped string ({@link maskKeyLikeStrings}) too. Returns a new value; the same function masks a body received
 * elsewhere (e.g. by a mock provider) identically, so the two can be compared byte for byte.
 */
export function redactSecrets<T>(value: T, env: Env): T {
  let out: unknown = value;
  const payload = (value as { payload?: unknown } | null)?.payload;
  if (payload && typeof payload === "object" && typeof (payload as CapturedPayload).url === "string")
    out = { ...value, payload: { ...payload, url: redactUrl((payload as CapturedPayload).url) } };
  const secrets = envSecrets(env);
  const redactText = (s: string) =>
    maskKeyLikeStrings(secrets.reduce((text, k) => text.split(k).join(REDACTED), s));
  const redact = (v: unknown): unknown => {
    if (typeof v === "string") return redactText(v);
    if (Array.isArray(v)) return v.map(redact);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [redactText(k), redact(x)]));
    return v;
  };
  return redact(out) as T;
}
