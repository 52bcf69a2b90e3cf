/**
 * The browser's calls for sharing one session branch (docs/http-api.md, "Shares"): preview, publish, the session's
 * and the caller's live shares, revoke, and the owner's branch-export URLs. Failures throw the app's `ApiError`
 * (components/http/api-fetch.ts; status 0 when the server was not reached); `shareErrorMessage` (view-model.ts)
 * words them.
 */
import { apiFetch, jsonInit } from "@/components/http/api-fetch";
import type { ShareOptions, SharePreview, ShareSummary } from "@/lib/share/types";

export type { Redaction, RedactionSite, SharePreview, ShareSummary } from "@/lib/share/types";

/** {@link apiFetch} with same-origin cookies, then the JSON answer (undefined for a 204). */
async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await apiFetch(url, { credentials: "same-origin", ...init });
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

const session = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

/** Exactly what the link would show (nothing stored). @throws ApiError 404 `entry_not_found`, 422 … */
export async function previewShare(
  sessionId: string,
  options: ShareOptions,
  signal?: AbortSignal,
): Promise<SharePreview> {
  return (
    await call<{ preview: SharePreview }>(
      `${session(sessionId)}/shares/preview`,
      jsonInit("POST", options, signal),
    )
  ).preview;
}

/** Publishes what was previewed (`digest`). @throws ApiError 409 `preview_stale` when it would differ. */
export async function publishShare(
  sessionId: string,
  input: ShareOptions & { digest: string; expiresAt: string | null },
): Promise<ShareSummary> {
  return (await call<{ share: ShareSummary }>(`${session(sessionId)}/shares`, jsonInit("POST", input))).share;
}

/** The session's live shares, newest first. */
export async function listSessionShares(sessionId: string, signal?: AbortSignal): Promise<ShareSummary[]> {
  return (await call<{ shares: ShareSummary[] }>(`${session(sessionId)}/shares`, { signal })).shares;
}

/** Every live share the caller may revoke (theirs, and those of workspaces they administer). */
export async function listMyShares(signal?: AbortSignal): Promise<ShareSummary[]> {
  return (await call<{ shares: ShareSummary[] }>("/api/shares", { signal })).shares;
}

/** Revokes a share: every URL of it answers 404 from now on. */
export function revokeShare(shareId: string): Promise<void> {
  return call<void>(`/api/shares/${encodeURIComponent(shareId)}`, { method: "DELETE" });
}

/** The owner's download of one branch (redacted as a share; no files, no system prompt): `html` or `jsonl`. */
export function branchExportUrl(sessionId: string, leafId: string, format: "html" | "jsonl"): string {
  return `${session(sessionId)}/branch-export?leaf=${encodeURIComponent(leafId)}&format=${format}`;
}

/** The file name of an attachment: RFC 5987 `filename*` first, then `filename`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? "")?.[1];
  if (star) {
    try {
      return decodeURIComponent(star);
    } catch {
      // A malformed escape: use the plain name.
    }
  }
  return /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? fallback;
}

/**
 * Downloads one branch's export (see {@link branchExportUrl}) through `fetch`, so a refusal can be shown, then saves it
 * with the server's file name. Resolves with that name. @throws ApiError (404 `entry_not_found`, 422 …).
 */
export async function downloadBranch(
  sessionId: string,
  leafId: string,
  format: "html" | "jsonl",
): Promise<string> {
  const res = await apiFetch(branchExportUrl(sessionId, leafId, format), { credentials: "same-origin" });
  const name = attachmentName(res.headers.get("content-disposition"), `session.${format}`);
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
