import ws from "ws";
import { z } from "zod";
import { setNodeWebSocket } from "@/lib/db/client";
import { withProject } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { createGitImportHttp } from "@/lib/net/git-http";
import { gitImportPolicy } from "@/lib/projects/git-hosts";
import { openRemote, pushToRemote } from "@/lib/remote";

// nodejs, not edge: the guarded git transport resolves the remote's host and checks every address (lib/net).
export const runtime = "nodejs";
setNodeWebSocket(ws);
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

const Body = z
  .object({
    url: z.string().max(2048),
    source: z.string().max(300).optional(),
    sessionId: z.string().max(64).optional(),
    branch: z.string().max(255).optional(),
    force: z.boolean().optional(),
  })
  .strict();

/**
 * `POST /api/projects/:id/push` `{ url, source?, sessionId?, branch?, force? }` → `{ pushed: PushOutcome }`: the
 * commit (HEAD, an oid, a ref, or the session's checkpoint ref) to `branch` of the remote, with the workspace's
 * credential for the URL's host. Errors: lib/remote/errors.ts (never the credential).
 */
export const POST = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withProject(request, id, "write", async ({ scope, project, vfs }) => {
    const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    const remote = await openRemote(scope, project.workspaceId, body.url);
    const http = createGitImportHttp(gitImportPolicy(process.env));
    const pushed = await pushToRemote(scope, vfs, project, remote, http, body);
    return Response.json({ pushed });
  });
});
