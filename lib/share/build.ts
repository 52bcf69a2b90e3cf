/**
 * The share preview (docs/sharing.md): what a link to one root→leaf path of a session would show, built exactly as
 * publishing stores it. The path's entries get fresh 8-hex ids (HMAC-SHA-256 keyed by the session id, so the same
 * leaf previews and publishes identically yet no id maps back to the session), with every id reference remapped
 * (`parentId`, label `targetId`, compaction `firstKeptEntryId`, branch_summary `fromId`, context_edit `targetId`, and
 * any original entry id quoted inside a string); labels and context edits aimed off the path are dropped. Every string
 * is redacted (`redact.ts`), whole values under secret-named keys, the keys of tool-call arguments and custom entry
 * data and the shared files' paths too (`entry-strings.ts`; clashes get `~2`…); image data is kept as it is and
 * counted. With `includeFiles`, the files of the leaf's checkpoint commit (text redacted; binary, over 1 MiB, or past
 * 20 MiB / 2,000 files listed but omitted); with `includeSystem`, the system prompt and its sources as the context
 * inspector builds them and the path's system messages (without it they are left out of the path, parents relinked).
 * Node-only (imports secretlint through `redact.ts`).
 */
import type { DbScope } from "@/lib/db/client";
import type { Env } from "@/lib/llm/models";
import { isBinary } from "@/lib/projects/files";
import { getProject } from "@/lib/projects/projects";
import { entryCommit } from "@/lib/session/checkpoint-rows";
import { loadBranch } from "@/lib/session/context-load";
import { CURRENT_SESSION_VERSION, type SessionEntry } from "@/lib/session/entries";
import type { SessionRow } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { commitSnapshot, readBlob } from "@/lib/vfs/worktree";
import { isEntryMetadata, renameKeys } from "./entry-strings";
import { ShareError } from "./errors";
import { checkOwnerRedactions } from "./owner-redactions";
import { CONTROL_CHARS, isShareablePath } from "./paths";
import { planEntries, planFiles, planSystem, RedactionPlan } from "./redaction-plan";
import type { Redaction, SharedFileInfo, ShareOptions, SharePreview, ShareSnapshot } from "./types";

/** Per-file cap of a shared file's text (bytes of the blob). */
export const SHARE_FILE_MAX_BYTES = 1024 * 1024;
/** Cap of all shared files' bytes together. */
export const SHARE_TOTAL_MAX_BYTES = 20 * 1024 * 1024;
/** Cap of the number of shared files with text. */
export const SHARE_MAX_FILES = 2000;

/**
 * Build the preview of sharing `session` up to `options.leafId`. `context.userId` = whose agent dir and trust shape the
 * system prompt (default the session's user); `context.env` = the provider environment (default the workspace's).
 * @returns `{ digest, snapshot, fileTexts }`; `digest` is the SHA-256 hex of the canonical JSON of
 *   `{ snapshot, fileTexts }`, what publishing must echo.
 * @throws ShareError 400 `redaction_blank` / `redaction_too_short` (an owner string empty, only whitespace, or under
 *   4 characters: `checkOwnerRedactions`), 422 `empty_path` (the session has
 *   no entries), 404 `entry_not_found` (the leaf is not an entry of the session); the context preview's errors when
 *   `includeSystem` is on.
 */
export async function buildSharePreview(
  scope: DbScope,
  session: SessionRow,
  options: ShareOptions,
  context: { userId?: string | null; env?: Env } = {},
): Promise<SharePreview> {
  const owner = checkOwnerRedactions(options.redact);
  const path = await sharedPath(scope, session, options.leafId);
  const allIds = (
    await scope.query<{ id: string }>("SELECT id FROM session_entries WHERE session_id = $1", [session.id])
  ).map((r) => r.id);
  const fresh = await freshIds(session.id, allIds);
  // The system messages on the path (the prompt's sections, AGENTS.md text, tool declarations) are the system
  // prompt: shown only with `includeSystem`.
  const entries = remapPath(options.includeSystem ? path : path.filter((e) => !isSystemEntry(e)), fresh);

  // Every redactable string: the title, each entry's strings, then the files and the system prompt.
  const plan = new RedactionPlan();
  const title = { text: session.title?.trim() || "Untitled session" };
  plan.add({ text: title.text }, { kind: "title" }, (t) => {
    title.text = t;
  });
  const { renames, images } = planEntries(plan, entries, fresh);
  const project = await getProject(scope, session.projectId);
  if (!project) throw new ShareError(404, "entry_not_found", `Session ${session.id} has no project`);
  const files = options.includeFiles ? await loadFiles(scope, session, options.leafId, project) : null;
  const fileTexts = planFiles(plan, files);
  const system = options.includeSystem
    ? await planSystem(plan, scope, { session, project, leafId: options.leafId }, context)
    : null;

  const redactions = await plan.apply(owner);
  renameKeys(renames);
  markRedactedFiles(files?.list ?? [], redactions);

  const leaf = path[path.length - 1];
  const snapshot: ShareSnapshot = {
    version: 1,
    title: title.text,
    header: {
      type: "session",
      version: CURRENT_SESSION_VERSION,
      id: await hmacHex(session.id, `header:${options.leafId}`, 32).then(asUuid),
      // The leaf's time; one not shaped as a timestamp (an imported entry's) was redacted: its shared copy's.
      timestamp: isEntryMetadata("timestamp", leaf.timestamp)
        ? leaf.timestamp
        : (entries[entries.length - 1]?.timestamp ?? ""),
      cwd: "/project",
    },
    entries,
    system,
    files: files?.list ?? null,
    redactions,
    images,
  };
  return { digest: await shareDigest(snapshot, fileTexts), snapshot, fileTexts };
}

/**
 * The root→leaf path of `leafId` in `session`.
 * @throws ShareError 422 `empty_path` (the session has no entries), 404 `entry_not_found` (no such entry).
 */
async function sharedPath(scope: DbScope, session: SessionRow, leafId: string): Promise<SessionEntry[]> {
  // A NUL cannot reach Postgres (text refuses it: a 500); no entry id holds a control character anyway.
  if (CONTROL_CHARS.test(leafId))
    throw new ShareError(404, "entry_not_found", `Entry ${leafId} is not in session ${session.id}`);
  const path = await loadBranch(scope, session.id, leafId);
  if (path.length > 0) return path;
  const [any] = await scope.query("SELECT 1 FROM session_entries WHERE session_id = $1 LIMIT 1", [
    session.id,
  ]);
  if (!any) throw new ShareError(422, "empty_path", `Session ${session.id} has no entries to share`);
  throw new ShareError(404, "entry_not_found", `Entry ${leafId} is not in session ${session.id}`);
}

/** Set `redacted` (the count of redactions in its contents; line 0 is the name) on each file the redaction changed. */
function markRedactedFiles(list: SharedFileInfo[], redactions: readonly Redaction[]): void {
  const counts = new Map<string, number>();
  for (const r of redactions)
    if (r.site.kind === "file" && r.site.line > 0)
      counts.set(r.site.path, (counts.get(r.site.path) ?? 0) + 1);
  for (const info of list) {
    const n = counts.get(info.path);
    if (n) info.redacted = n;
  }
}

/** SHA-256 hex of the canonical JSON (keys sorted at every depth) of `{ snapshot, fileTexts }`. */
export async function shareDigest(
  snapshot: ShareSnapshot,
  fileTexts: Record<string, string>,
): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson({ snapshot, fileTexts }));
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** JSON with object keys sorted at every depth (undefined members left out, as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const keys = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

async function hmacHex(key: string, message: string, hexChars: number): Promise<string> {
  const k = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(message));
  return [...new Uint8Array(sig)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, hexChars);
}

const asUuid = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;

/** Original entry id → fresh 8-hex id, for every entry of the session (unique; keyed by the session id). */
async function freshIds(sessionId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(`strata-share:${sessionId}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const originals = new Set(ids);
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const id of [...ids].sort()) {
    for (let n = 0; ; n++) {
      const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}:${n}`));
      const hex = [...new Uint8Array(sig, 0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
      if (!taken.has(hex) && !originals.has(hex)) {
        taken.add(hex);
        out.set(id, hex);
        break;
      }
    }
  }
  return out;
}

/** Whether `entry` holds a SystemMessage (`{ role: "system", content, sections?, toolsAdded?, toolsRemoved? }`). */
function isSystemEntry(entry: SessionEntry): boolean {
  const message = (entry as { message?: unknown }).message;
  return (
    entry.type === "message" &&
    typeof message === "object" &&
    message !== null &&
    (message as { role?: unknown }).role === "system"
  );
}

/** The path with fresh ids and remapped references; labels and context edits aimed off the path dropped. */
function remapPath(path: readonly SessionEntry[], fresh: ReadonlyMap<string, string>): SessionEntry[] {
  const onPath = new Set(path.map((e) => e.id));
  const kept: SessionEntry[] = [];
  let parentId: string | null = null;
  for (const original of path) {
    const e = structuredClone(original) as SessionEntry & Record<string, unknown>;
    if ((e.type === "label" || e.type === "context_edit") && !onPath.has(String(e.targetId))) continue;
    const id = fresh.get(e.id)!;
    e.id = id;
    e.parentId = parentId;
    if (e.type === "label" || e.type === "context_edit") e.targetId = fresh.get(String(e.targetId));
    if (e.type === "compaction") e.firstKeptEntryId = fresh.get(String(e.firstKeptEntryId)) ?? id;
    if (e.type === "branch_summary" && e.fromId !== "root") e.fromId = fresh.get(String(e.fromId)) ?? "root";
    kept.push(e);
    parentId = id;
  }
  return kept;
}

/** The leaf's checkpoint files: the list (with omissions) and the texts to redact, by path. */
async function loadFiles(
  scope: DbScope,
  session: SessionRow,
  leafId: string,
  project: { workspaceId: string; rootPath: string },
): Promise<{ list: SharedFileInfo[]; texts: Map<string, string> }> {
  const commit = await entryCommit(scope, session.id, leafId);
  if (!commit) return { list: [], texts: new Map() };
  const vfs = openWorkspaceVfs(project.workspaceId, scope).vfs;
  const tree = await commitSnapshot(vfs, project.rootPath, commit);
  const paths = [...tree.keys()].filter(isShareablePath).sort();
  const gitdir = `${project.rootPath}/.git`;
  await vfs.prefetch(
    paths.map((p) => {
      const oid = tree.get(p)!.oid;
      return `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
    }),
    { withData: true },
  );
  const list: SharedFileInfo[] = [];
  const texts = new Map<string, string>();
  const decoder = new TextDecoder();
  let total = 0;
  for (const path of paths) {
    const { oid, mode } = tree.get(path)!;
    const bytes = await readBlob(vfs, project.rootPath, oid);
    const info: SharedFileInfo = { path, size: bytes.byteLength, mode };
    // A NUL anywhere (not only in the first 8 KiB `isBinary` looks at) is binary here: Postgres text refuses NUL.
    if ((mode !== "120000" && isBinary(bytes)) || bytes.includes(0)) info.omitted = "binary";
    else if (bytes.byteLength > SHARE_FILE_MAX_BYTES) info.omitted = "too-large";
    else if (total + bytes.byteLength > SHARE_TOTAL_MAX_BYTES || texts.size >= SHARE_MAX_FILES)
      info.omitted = "over-total";
    else {
      total += bytes.byteLength;
      texts.set(path, decoder.decode(bytes));
    }
    list.push(info);
  }
  return { list, texts };
}
