/**
 * The shapes of a session share (docs/sharing.md): what the owner previews, what publishing stores (an immutable,
 * redacted snapshot of one root→leaf path, with the files of the leaf's checkpoint when chosen) and what the public
 * routes serve. Every layer of `lib/share/` and every share route speaks these types; nothing here imports Node APIs.
 */
import type { SessionEntry, SessionHeader } from "@/lib/session/entries";

/**
 * Where a redaction was made. `entry` indexes {@link ShareSnapshot.entries}; `part` names which part of that entry
 * (pi's field: `command`, `output`, `text`, `thinking`, `arguments`…, `<field> key` for an object key; absent when the
 * string is in no such field); `line` is 1-based, except a file's line 0:
 * the file name (its path was redacted; `path` is the redacted path the share holds), and a system line 0: the
 * system prompt's sources (a label or path).
 */
export type RedactionSite =
  | { kind: "title" }
  | { kind: "entry"; entry: number; part?: string; line: number }
  | { kind: "file"; path: string; line: number }
  | { kind: "system"; line: number };

/** One redaction: where, and which rule found it (a secretlint rule id, or `owner` for an owner's own string). */
export interface Redaction {
  site: RedactionSite;
  /** e.g. `@secretlint/secretlint-rule-aws`, `strata/dotenv`, `owner`. */
  rule: string;
  /** The rule's message id, e.g. `AWSSecretAccessKey`; `owner` for owner redactions. */
  kind: string;
  /** The redacted line with every secret replaced, at most 160 characters (never the secret itself). */
  excerpt: string;
}

/** A file of the shared checkpoint: its text is in the share (redacted) unless `omitted` says why not. */
export interface SharedFileInfo {
  path: string;
  /** Bytes of the original blob. */
  size: number;
  /** `100644` / `100755` / `120000`. */
  mode: string;
  omitted?: "binary" | "too-large" | "over-total";
  /** How many secrets were redacted in the file's contents (absent: none; the shared text differs from the file). */
  redacted?: number;
}

/** The system prompt and the rules that shaped it, when the owner includes them (off by default). */
export interface SharedSystem {
  prompt: string;
  /** The context files and rules the prompt was built from, as the context inspector names them. */
  sources: { label: string; path: string }[];
}

/**
 * The snapshot a share serves: one root→leaf path as pi entries with fresh ids (nothing maps back to the session),
 * already redacted. Immutable once published; later turns of the session never change it.
 */
export interface ShareSnapshot {
  version: 1;
  /** The session's title (redacted), or "Untitled session". */
  title: string;
  /**
   * A pi session header for the JSONL export: a fresh id (derived like the entries' ids), the shared leaf's timestamp
   * (so the same leaf previews and publishes identically), cwd `/project`.
   */
  header: SessionHeader;
  entries: SessionEntry[];
  system: SharedSystem | null;
  /** The files' list (contents are stored apart, see `share_files`); null when files were not shared. */
  files: SharedFileInfo[] | null;
  redactions: Redaction[];
  /** Images on the path (their data is shared as it is, never redacted). */
  images?: number;
}

/** What the owner chooses before publishing. */
export interface ShareOptions {
  /** The leaf of the path to share (an entry id of the session). */
  leafId: string;
  includeFiles: boolean;
  includeSystem: boolean;
  /** The owner's own strings to redact everywhere (each at least 4 characters, whitespace at its ends not counted). */
  redact: string[];
}

/** `POST /api/sessions/:id/shares/preview` → `{ preview }`. `digest` is what `publish` must echo. */
export interface SharePreview {
  digest: string;
  snapshot: ShareSnapshot;
  /** Redacted text of each shared file (only those not omitted). */
  fileTexts: Record<string, string>;
}

/** A published share as its owner and admins see it (never its contents). */
export interface ShareSummary {
  id: string;
  /** `/s/<token>`, relative to the app's origin. */
  url: string;
  sessionId: string;
  /** The session's title as the share holds it: redacted, as published (= `title`; never the live title). */
  sessionTitle: string;
  projectId: string;
  projectName: string;
  workspaceId: string;
  title: string;
  entryCount: number;
  includeFiles: boolean;
  includeSystem: boolean;
  redactionCount: number;
  createdAt: string;
  createdBy: { id: string; name: string };
  /** ISO time, or null for no expiry. */
  expiresAt: string | null;
}
