/**
 * A share (or an owner's branch, built the same way) as a downloadable file: `html` is the offline single-file
 * document ({@link renderShareDocument} in `export` mode, files inlined when their texts are given), `jsonl` is the
 * snapshot as a pi session file (`serializeSessionJsonl(snapshot.header, snapshot.entries)`, pi's key order restored: it imports back into
 * Strata and pi reads it). The file name comes from the snapshot's (already redacted) title. Pure and edge-safe.
 */

import type { SessionEntry, SessionHeader } from "@/lib/session/entries";
import { serializeSessionJsonl } from "@/lib/session/jsonl";
import type { ShareSnapshot } from "../types";
import { renderShareDocument } from "./document";
import { revealPlain } from "./unicode";

/** The download formats. */
export const EXPORT_FORMATS = ["html", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A file to download: its name, media type and text. */
export interface ExportFile {
  fileName: string;
  contentType: string;
  body: string;
}

/**
 * A file name from a title: characters that file systems or headers refuse (`/ \ : * ? " < > |`, control characters)
 * and bidi controls and invisible characters (`unicode.ts`: a right-to-left override would make the rest of the name,
 * the extension too, read backwards) become `_` (whitespace runs first become one space), at most 100 characters,
 * `session` when nothing is left; then `.<ext>`.
 */
export function exportFileName(title: string, ext: string): string {
  const base = revealPlain(title, "strict", () => "_")
    .replace(/\s+/g, " ")
    .replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, "_")
    .trim()
    .slice(0, 100)
    .trim();
  return `${base && !/^[._ ]+$/.test(base) ? base : "session"}.${ext}`;
}

/**
 * `header` and `entries` with pi's key order restored where it is fixed — the header's `type, version, id, timestamp,
 * cwd, parentSession` and every entry's leading `type, id, parentId, timestamp` — since a stored snapshot (`jsonb`)
 * comes back with its keys sorted. Values are untouched; keys absent stay absent.
 */
export function piKeyOrder(
  header: SessionHeader,
  entries: readonly SessionEntry[],
): { header: SessionHeader; entries: SessionEntry[] } {
  const { type, version, id, timestamp, cwd, parentSession, ...restHeader } = header;
  return {
    header: { type, version, id, timestamp, cwd, parentSession, ...restHeader },
    entries: entries.map((entry) => {
      const { type: t, id: i, parentId, timestamp: at, ...rest } = entry;
      return { type: t, id: i, parentId, timestamp: at, ...rest } as SessionEntry;
    }),
  };
}

/**
 * The download of `snapshot` as `format`: `html` → `text/html; charset=utf-8`, `<title>.html` (rendered with
 * `fileTexts` inlined and `exportedAt` as its date); `jsonl` → `application/x-ndjson; charset=utf-8`, `<title>.jsonl`.
 */
export function shareExport(
  snapshot: ShareSnapshot,
  format: ExportFormat,
  options: { fileTexts?: Readonly<Record<string, string>>; exportedAt?: string } = {},
): ExportFile {
  if (format === "jsonl") {
    const { header, entries } = piKeyOrder(snapshot.header, snapshot.entries);
    return {
      fileName: exportFileName(snapshot.title, "jsonl"),
      contentType: "application/x-ndjson; charset=utf-8",
      body: serializeSessionJsonl(header, entries),
    };
  }
  return {
    fileName: exportFileName(snapshot.title, "html"),
    contentType: "text/html; charset=utf-8",
    body: renderShareDocument(snapshot, {
      mode: "export",
      fileTexts: options.fileTexts,
      createdAt: options.exportedAt,
    }),
  };
}
