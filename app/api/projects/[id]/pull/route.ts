import ws from "ws";
import { z } from "zod";
import { pinSessionBranches } from "@/lib/checkpoints/session-branches";
import { setNodeWebSocket } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import { withProject } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { createGitImportHttp } from "@/lib/net/git-http";
import { gitImportPolicy } from "@/lib/projects/git-hosts";
import { openRemote, pullFromRemote } from "@/lib/remote";

// nodejs, not edge: the guarded git transport resolves the remote's host and checks every address (lib/net).
export const runtime = "nodejs";
setNodeWebSocket(ws);
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

const Body = z.object({ url: z.string().max(2048), branch: z.string().max(255).optional() }).strict();

/**
 * `POST /api/projects/:id/pull` `{ url, branch? }` → `{ pulled: PullOutcome }`: fetch `branch` (default HEAD's
 * branch name) and fast-forward or merge HEAD's branch and the main line's working tree to it (400 `pull_main_only`
 * with `?session=`: a pull moves main; every session keeps its own files). 409 `pull_conflict` /
 * `merge_conflict` with `paths` when it would overwrite uncommitted work or does not merge cleanly.
 */
export const POST = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  if (new URL(request.url).searchParams.has("session"))
    throw new StrataError(
      400,
      "pull_main_only",
      "A pull moves the project's main line, not a session's files: send it without ?session=, then merge main's changes into the session.",
    );
  return withProject(request, id, "write", async ({ scope, caller, project, vfs }) => {
    const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    // Sessions still standing on HEAD keep their base when the pull moves it (their files are pinned by the VFS).
    await pinSessionBranches(scope, vfs, project);
    const remote = await openRemote(scope, project.workspaceId, body.url);
    const http = createGitImportHttp(gitImportPolicy(process.env));
    const author = { name: caller.name || caller.email, email: caller.email };
    const pulled = await pullFromRemote(vfs, project, remote, http, { remoteBranch: body.branch, author });
    return Response.json({ pulled });
  });
});
