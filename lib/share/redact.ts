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
import { encodedRuns } from "./encoded";
import { markdownView, sourceRange } from "./markdown-view";
import { MIN_OWNER_REDACTION } from "./owner-redactions";
import { type Hit, isShapeHit, lintHits, secretValuesOnly } from "./redact-rules";
import { textKindOf } from "./value-shape";

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

const SEPARATOR = "\n\n";
/** Files whose rules go by their path (`.env*`, `.pgpass`): linted one by one under their own name, never batched. */
const LINTED_ALONE = /(^|\/)(\.env[^/]*|\.pgpass)$/;
/** Characters per `lintSource` call when batching (bounds the joined string). */
const BATCH_CHARS = 4 * 1024 * 1024;

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
 * Redact `items` (same order out): secretlint findings and `owner` strings. A secret counts where it is written and
 * where it shows: each markdown text (a message, a tool's output, a `.md` file) is linted again as rendered
 * (`markdown-view.ts`: `sk\_live\_…`, `sk&#45;ant…`, a key split by `**…**` or a link), and each base64 or hex run
 * that decodes to text is linted decoded (`encoded.ts`); a shape-based finding there redacts the run whole. Items
 * without a `.env*` / `.pgpass` path are linted together in batches of about 4 MiB, joined by blank lines, with each
 * hit clipped to the items it touches.
 */
export async function redactTexts(
  items: readonly RedactItem[],
  owner: readonly string[] = [],
): Promise<RedactedText[]> {
  const plain = items.map((it) => (it.secretKey || it.text === "" ? null : it));
  const hits = await findHits(plain);
  const views = plain.map((it) => (it && isMarkdown(it.filePath) ? markdownView(it.text) : null));
  const viewHits = await findHits(views.map((v) => (v ? { text: v.text } : null)));
  const runs = plain.map((it) => (it ? encodedRuns(it.text) : []));
  const decoded = await findHits(runs.flat().map((r) => ({ text: r.decoded })));
  let at = 0;
  return items.map((item, i) => {
    if (item.text === "") return { text: item.text, findings: [], excerpts: [] };
    if (item.secretKey) {
      const whole = "[redacted:SecretKeyValue]";
      return {
        text: whole,
        findings: [{ rule: SECRET_KEY_RULE, kind: "SecretKeyValue", line: 1 }],
        excerpts: [whole],
      };
    }
    const all = [...hits[i], ...ownerHits(item.text, owner)];
    const view = views[i];
    if (view) for (const h of viewHits[i]) all.push({ ...h, ...sourceRange(view, h.start, h.end) });
    for (const run of runs[i]) {
      if (decoded[at++].some(isShapeHit))
        all.push({ start: run.start, end: run.end, rule: ENCODED_RULE, kind: run.kind });
    }
    return applyHits(item.text, all);
  });
}

/** The rule id of a base64 or hex run whose decoded text holds a secret (not a secretlint rule). */
export const ENCODED_RULE = "strata/encoded";

/** Text rendered as markdown when shared: messages and tool output (no path), `.md` / `.markdown` files. */
function isMarkdown(filePath: string | undefined): boolean {
  return filePath === undefined || /\.(md|markdown|mdx)$/i.test(filePath);
}

/**
 * The hits of each item (null: none), in its own offsets, name-based ones kept only where the value is a secret.
 * `.env*` / `.pgpass` files are linted alone under their path; the rest in joined batches.
 */
async function findHits(items: readonly (RedactItem | null)[]): Promise<Hit[][]> {
  const out: Hit[][] = items.map(() => []);
  const batched: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!item || item.text === "") continue;
    if (item.filePath !== undefined && LINTED_ALONE.test(item.filePath))
      out[i] = secretValuesOnly(item.text, await lintHits(item.text, item.filePath), "config");
    else batched.push(i);
  }
  for (let b = 0; b < batched.length; ) {
    const group: number[] = [];
    let chars = 0;
    while (
      b < batched.length &&
      (group.length === 0 || chars + items[batched[b]]!.text.length <= BATCH_CHARS)
    ) {
      chars += items[batched[b]]!.text.length + SEPARATOR.length;
      group.push(batched[b++]);
    }
    const perItem = await lintBatch(group.map((i) => items[i]!.text));
    group.forEach((i, g) => {
      const { text, filePath } = items[i]!;
      out[i] = secretValuesOnly(text, perItem[g], textKindOf(filePath));
    });
  }
  return out;
}

/** Lint `texts` joined by blank lines in one call; each hit clipped to the texts it touches, in their offsets. */
async function lintBatch(texts: readonly string[]): Promise<Hit[][]> {
  const offsets: number[] = [];
  let joined = "";
  for (const text of texts) {
    if (joined) joined += SEPARATOR;
    offsets.push(joined.length);
    joined += text;
  }
  const perItem: Hit[][] = texts.map(() => []);
  for (const h of await lintHits(joined, undefined)) {
    // Texts whose span the hit touches (a multi-line match may cross a separator): clip it to each.
    for (let g = upperBound(offsets, h.start) - 1; g < texts.length && g >= 0; g++) {
      const from = offsets[g];
      const to = from + texts[g].length;
      if (from >= h.end) break;
      const start = Math.max(h.start, from);
      const end = Math.min(h.end, to);
      if (end > start) perItem[g].push({ ...h, start: start - from, end: end - from });
    }
  }
  return perItem;
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
