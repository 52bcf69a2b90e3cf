/** The share routes imported once, and publish / read-all helpers over them (tests/integration/share). */

import * as file from "@/app/api/s/[token]/files/[...path]/route";
import * as fork from "@/app/api/s/[token]/fork/route";
import * as data from "@/app/api/s/[token]/route";
import * as preview from "@/app/api/sessions/[id]/shares/preview/route";
import * as sessionShares from "@/app/api/sessions/[id]/shares/route";
import * as revoke from "@/app/api/shares/[shareId]/route";
import * as mine from "@/app/api/shares/route";
import type { SharePreview, ShareSummary } from "@/lib/share/types";
import type { TestUser } from "../../helpers/auth";
import { call } from "./share-fixture";

export const routes = { fork, data, file, sessionShares, preview, revoke, mine };

export interface ShareOpts {
  leafId: string;
  includeFiles?: boolean;
  includeSystem?: boolean;
  redact?: string[];
  expiresAt?: string | null;
}

/** Preview then publish as `user`; @returns the preview's body, the published summary and its token. */
export async function share(user: TestUser, sessionId: string, opts: ShareOpts) {
  const { expiresAt, ...body } = opts;
  const p = await call(
    routes.preview.POST,
    user,
    `/api/sessions/${sessionId}/shares/preview`,
    { id: sessionId },
    {
      json: body,
    },
  );
  if (p.status !== 200) throw new Error(`preview answered ${p.status}: ${p.body}`);
  const { preview } = JSON.parse(p.body) as { preview: SharePreview };
  const res = await call(
    routes.sessionShares.POST,
    user,
    `/api/sessions/${sessionId}/shares`,
    { id: sessionId },
    {
      json: { ...body, digest: preview.digest, ...(expiresAt !== undefined ? { expiresAt } : {}) },
    },
  );
  if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${res.body}`);
  const summary = (JSON.parse(res.body) as { share: ShareSummary }).share;
  return { previewBody: p.body, preview, summary, token: summary.url.slice("/s/".length) };
}

/** Every public data URL of a share: its data and each of its files. @returns status and body of each. */
export async function readAll(token: string, paths: readonly string[]) {
  const out: { url: string; status: number; body: string }[] = [];
  const d = await call(routes.data.GET, null, `/api/s/${token}`, { token });
  out.push({ url: `/api/s/${token}`, status: d.status, body: d.body });
  for (const path of paths) {
    const r = await call(routes.file.GET, null, `/api/s/${token}/files/${path}`, {
      token,
      path: path.split("/"),
    });
    out.push({ url: `/api/s/${token}/files/${path}`, status: r.status, body: r.body });
  }
  return out;
}
