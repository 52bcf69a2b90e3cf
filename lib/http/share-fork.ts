/**
 * Forking a share, for the JSON API, the share page's form and the way back from signing in (docs/sharing.md). A
 * signed-out visitor who presses "Fork to my workspace" is sent to sign in; the form post also sets a fork intent — an
 * HttpOnly, SameSite=Lax cookie scoped to `/s/<token>` that only that same-origin post can set — and sign-in returns
 * to `/s/<token>/fork`, which forks at once when the intent is there (one click in all, as the visitor asked) and
 * otherwise shows the share page. Another site cannot set the intent, so its link to that page forks nothing.
 */
import { resolveCaller } from "@/lib/auth/caller";
import { unauthenticated } from "@/lib/auth/errors";
import { DbScope } from "@/lib/db/client";
import { forkShare } from "@/lib/share/fork";
import { findLiveShare } from "@/lib/share/store";
import { withWorkspaceOrPersonal } from "./access";
import { errorResponse } from "./errors";
import { shareNotFound, sharePublic } from "./share";
import { forkFailedPage, seeOther } from "./share-pages";

/** The fork intent's cookie name. */
export const FORK_INTENT_COOKIE = "strata_fork_intent";

/** How long a fork intent waits for the sign-in (s). */
export const FORK_INTENT_MAX_AGE_S = 30 * 60;

/** Where sign-in returns to carry out a fork intent for `token`. */
export const forkResumePath = (token: string) => `/s/${token}/fork`;

function intentCookie(request: Request, token: string, value: string, maxAge: number): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${FORK_INTENT_COOKIE}=${value}; Path=/s/${token}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/** Whether `request` carries the fork intent for `token`. */
export function hasForkIntent(request: Request, token: string): boolean {
  const cookies = (request.headers.get("cookie") ?? "").split(/;\s*/);
  return cookies.includes(`${FORK_INTENT_COOKIE}=${token}`);
}

/** `response` with the fork intent for `token` removed. */
export function withoutForkIntent(request: Request, token: string, response: Response): Response {
  response.headers.append("set-cookie", intentCookie(request, token, "", 0));
  return response;
}

/**
 * Fork live share `token` for the caller of `request`: 404 (the share's) when it is not live; signed out, a form post
 * answers 303 to sign in (with the fork intent set) and JSON answers 401; signed in, the fork into `body.workspaceId`
 * (default: personal) answers 303 to the new project (form) or 201 `{ project, session }` (JSON). A form's later
 * failure answers an HTML page with the error's status and message.
 */
export async function forkShareResponse(
  request: Request,
  token: string,
  body: { workspaceId?: string; name?: string },
  form: boolean,
): Promise<Response> {
  const probe = new DbScope();
  try {
    if (!(await findLiveShare(probe, token))) return shareNotFound();
    if (!(await resolveCaller(probe, request))) {
      if (!form) return sharePublic(errorResponse(unauthenticated()));
      const signIn = seeOther(`/sign-in?next=${encodeURIComponent(forkResumePath(token))}`);
      signIn.headers.append("set-cookie", intentCookie(request, token, token, FORK_INTENT_MAX_AGE_S));
      return sharePublic(signIn);
    }
  } finally {
    await probe.release();
  }
  const fork = withWorkspaceOrPersonal(
    request,
    body.workspaceId,
    "write",
    async ({ scope, caller, access }) => {
      const share = await findLiveShare(scope, token);
      if (!share) return shareNotFound();
      const forked = await forkShare(scope, caller, share, {
        workspaceId: access.workspaceId,
        ...(body.name ? { name: body.name } : {}),
      });
      if (form) return sharePublic(seeOther(`/projects/${forked.project.id}`));
      return sharePublic(Response.json(forked, { status: 201 }));
    },
  );
  // The share page's form has no script to show a JSON error: a failure answers a page saying it, with a way back.
  return form ? fork.catch((error) => forkFailedPage(token, error)) : fork;
}
