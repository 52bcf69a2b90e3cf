/**
 * The share dialog's and the "Shared links" list's words, as pure functions (unit-tested with exact strings): where
 * a redaction was, a rule's short name, the preview's counts, the expiry choices, and the sentence for a failed
 * request (what happened and what to do next).
 */
import { ApiError } from "@/components/api-client";
import { formatBytes } from "@/components/ui/format";
import type { RedactionSite, SharedFileInfo, ShareSnapshot } from "@/lib/share/types";

/** Shortest string the server redacts for the owner (lib/share/owner-redactions.ts: code points, trimmed). */
export const MIN_REDACTION_LENGTH = 4;

/** Where a redaction was: `Title`, `Entry 3, line 2`, `Entry 3 (output), line 1` (the entry's part when known), `.env, line 1`, `.env (file name)`, `System prompt, line 4`,
 * `System prompt sources` (line 0: a source's label or path). */
export function redactionWhere(site: RedactionSite): string {
  switch (site.kind) {
    case "title":
      return "Title";
    case "entry":
      return `Entry ${site.entry + 1}${site.part ? ` (${site.part})` : ""}, line ${site.line}`;
    case "file":
      return site.line === 0 ? `${site.path} (file name)` : `${site.path}, line ${site.line}`;
    case "system":
      return site.line === 0 ? "System prompt sources" : `System prompt, line ${site.line}`;
  }
}

/** A rule's short name: `@secretlint/secretlint-rule-aws` → `aws`; `owner` → `your string`. */
export function ruleLabel(rule: string): string {
  if (rule === "owner") return "your string";
  return rule.replace(/^@secretlint\/secretlint-rule-/, "");
}

/** `1 entry` / `N entries`, and so on. */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The preview's counts: `5 entries · 2 files (1 not shared) · 3 redactions`; files only when shared. */
export function previewCounts(snapshot: Pick<ShareSnapshot, "entries" | "files" | "redactions">): string {
  const parts = [plural(snapshot.entries.length, "entry", "entries")];
  if (snapshot.files) {
    const omitted = snapshot.files.filter((f) => f.omitted).length;
    parts.push(
      `${plural(snapshot.files.length, "file", "files")}${omitted > 0 ? ` (${omitted} not shared)` : ""}`,
    );
  }
  parts.push(plural(snapshot.redactions.length, "redaction", "redactions"));
  return parts.join(" · ");
}

export const EXPIRY_CHOICES = [
  { value: "never", label: "Never", days: 0 },
  { value: "1d", label: "1 day", days: 1 },
  { value: "7d", label: "7 days", days: 7 },
  { value: "30d", label: "30 days", days: 30 },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]["value"];

/** The `expiresAt` to publish with: null for never, else `now` plus the choice's days (ISO). */
export function expiresAtFor(choice: ExpiryChoice, now: Date): string | null {
  const days = EXPIRY_CHOICES.find((c) => c.value === choice)?.days ?? 0;
  return days === 0 ? null : new Date(now.getTime() + days * 86_400_000).toISOString();
}

/**
 * Why `text` cannot be added to the owner's redactions (null: it can). The text is judged trimmed (the dialog adds it
 * trimmed): spaces at its ends would make it redact every run of spaces.
 */
export function redactionInputProblem(text: string, existing: readonly string[]): string | null {
  const trimmed = text.trim();
  if (trimmed.length === 0) return "Type the text to redact.";
  if ([...trimmed].length < MIN_REDACTION_LENGTH)
    return `Type at least ${MIN_REDACTION_LENGTH} characters (spaces at the ends do not count): shorter strings would redact too much.`;
  if (existing.includes(trimmed)) return "That text is already redacted.";
  return null;
}

/** One shared file as the preview lists it: `src/app.ts · 1.2 KB`, `logo.png · not shared (binary)`. */
export function sharedFileLine(file: SharedFileInfo): string {
  if (file.omitted) return `${file.path} · not shared (${OMITTED_REASON[file.omitted]})`;
  const redacted = file.redacted
    ? ` · ${file.redacted === 1 ? "1 secret redacted" : `${file.redacted} secrets redacted`}`
    : "";
  return `${file.path} · ${formatBytes(file.size)}${redacted}`;
}

const OMITTED_REASON: Record<NonNullable<SharedFileInfo["omitted"]>, string> = {
  binary: "binary",
  "too-large": "over 1 MiB",
  "over-total": "past the 20 MiB or 2,000-file total",
};

/** A share's link as the user copies it: the app's origin plus `/s/<token>`. */
export function absoluteShareUrl(url: string, origin: string): string {
  return new URL(url, origin).toString();
}

/** `Never expires` / `Expires <date>` (`format` renders the ISO time). */
export function expiryText(expiresAt: string | null, format: (iso: string) => string): string {
  return expiresAt === null ? "Never expires" : `Expires ${format(expiresAt)}`;
}

export type ShareAction = "preview" | "publish" | "load" | "revoke" | "download";

const ACTION_WORDS: Record<ShareAction, string> = {
  preview: "Could not build the preview",
  publish: "Could not publish the link",
  load: "Could not load the shared links",
  revoke: "Could not revoke the link",
  download: "Could not download the conversation",
};

/** The sentence for a failed share request: what happened, then what to do next. */
export function shareErrorMessage(action: ShareAction, err: unknown): string {
  const head = ACTION_WORDS[action];
  if (!(err instanceof ApiError))
    return `${head}: ${err instanceof Error ? err.message : String(err)}. Try again.`;
  if (err.status === 0)
    return `${head}: the Strata server could not be reached. Check that it is running and your connection, then try again.`;
  switch (err.code) {
    case "preview_stale":
      return `${head}: the session, its files or the rules changed since this preview. Review the new preview, then publish again.`;
    case "redaction_blank":
    case "redaction_too_short":
    case "publish_failed":
      // The server's sentence says what happened and what to do (a redaction: its position among yours, in order).
      return `${head}: ${err.message}`;
    case "entry_not_found":
      return `${head}: that point of the session no longer exists. Reopen the session tree and pick another point.`;
    case "empty_path":
      return `${head}: there is nothing on this branch yet. Send a message first.`;
    case "bad_expiry":
      return `${head}: ${err.message}. Pick another expiry.`;
  }
  if (err.status === 401) return `${head}: you are signed out. Sign in again, then retry.`;
  if (err.status === 403)
    return `${head}: you are not allowed to (${err.message}). Ask an owner or admin of the workspace.`;
  if (err.status === 404 && action === "revoke")
    return `${head}: it no longer exists (already revoked or expired). Reload the list.`;
  return `${head}: ${err.message} (HTTP ${err.status}). Try again in a moment.`;
}
