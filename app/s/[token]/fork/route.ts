import { route } from "@/lib/http/errors";
import { forkShareResponse, hasForkIntent, withoutForkIntent } from "@/lib/http/share-fork";
import { seeOther } from "@/lib/http/share-pages";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Where signing in returns after "Fork to my workspace" on a share page: with the fork intent that button's post set
 * (lib/http/share-fork.ts), the fork happens now (303 to the new project; the intent is cleared); without it, 303 to
 * the share page. Still signed out: 303 to sign in again (the intent kept). A share no longer live: its 404.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  if (!hasForkIntent(request, token)) return seeOther(`/s/${token}`);
  const response = await forkShareResponse(request, token, {}, true);
  return response.status === 303 && response.headers.get("location")?.startsWith("/sign-in")
    ? response
    : withoutForkIntent(request, token, response);
});
