/**
 * The browser's calls for sharing one session branch (docs/http-api.md, "Shares"): preview, publish, the session's
 * and the caller's live shares, revoke, and the owner's branch-export URLs. Failures throw the app's
 * {@link ApiError} (status 0 when the server was not reached); `shareErrorMessage` (view-model.ts) words them.
 */
import { ApiError, errorFromResponse } from "@/components/api-client";
import type { ShareOptions, SharePreview, ShareSummary } from "@/lib/share/types";

export type { Redaction, RedactionSite, SharePreview, ShareSummary } from "@/lib/share/types";

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "same-origin", ...init });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) throw await errorFromResponse(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

const post = (body: unknown, signal?: AbortSignal): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
  signal,
});
const session = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

/** Exactly what the link would show (nothing stored). @throws ApiError 404 `entry_not_found`, 422 … */
export async function previewShare(
  sessionId: string,
  options: ShareOptions,
  signal?: AbortSignal,
): Promise<SharePreview> {
  return (
    await call<{ preview: SharePreview }>(`${session(sessionId)}/shares/preview`, post(options, signal))
  ).preview;
}

/** Publishes what was previewed (`digest`). @throws ApiError 409 `preview_stale` when it would differ. */
export async function publishShare(
  sessionId: string,
  input: ShareOptions & { digest: string; expiresAt: string | null },
): Promise<ShareSummary> {
  return (await call<{ share: ShareSummary }>(`${session(sessionId)}/shares`, post(input))).share;
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
  let res: Response;
  try {
    res = await fetch(branchExportUrl(sessionId, leafId, format), { credentials: "same-origin" });
  } catch (err) {
    throw new ApiError(0, "network_error", err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) throw await errorFromResponse(res);
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
