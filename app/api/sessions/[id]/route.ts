import { z } from "zod";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { toSessionView } from "@/lib/http/views";
import { loadBranch } from "@/lib/session/context-load";
import { branchAuthors } from "@/lib/session/entry-authors";
import { entryRepairs } from "@/lib/session/entry-repair";
import { deleteSession, renameSession } from "@/lib/session/lifecycle";
import { buildSessionMessages, getSessionContextSettings } from "@/lib/session/projection";
import { listQueued } from "@/lib/session/queue";
import { getLiveRun } from "@/lib/session/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The session, the messages of its current branch (root first), who wrote its user messages (`authors`: message
 * timestamp → name), its live run if any
 * (`{ id, kind, mode, startLeafId, lastSeq }`, e.g. started in another tab), the texts queued for it, and what
 * reading the branch repaired (`repairs`, stored broken content). While a run is live the messages are the path
 * to its `startLeafId`: replaying the run's events from seq 0 on top of them gives what its own tab shows.
 */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "read", async ({ scope, session }) => {
    const run = await getLiveRun(scope, session.id);
    const branch = await loadBranch(scope, session.id, run ? run.startLeafId : session.leafId);
    const { model } = getSessionContextSettings(branch);
    return Response.json({
      session: toSessionView(session, model ? `${model.provider}/${model.modelId}` : null),
      messages: buildSessionMessages(branch),
      authors: await branchAuthors(scope, session.id, branch),
      repairs: entryRepairs(branch),
      run,
      queue: run ? await listQueued(scope, session.id) : { steering: [], followUp: [] },
    });
  });
});

const Rename = z.object({ title: z.string() }).strict();

/** Rename: `{ title }` → `{ session }`; stored as pi's `session_info` entry (lib/session/lifecycle.ts). */
export const PATCH = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(req, { limit: SMALL_JSON_LIMIT });
  return withSession(req, id, "write", async ({ scope }) => {
    const { title } = input.parse(Rename);
    const session = await renameSession(scope, id, title);
    return Response.json({ session: toSessionView(session, null) });
  });
});

/** Delete the session, its entries, runs, queue and checkpoint branch → `{ deleted }`; 409 while a run is live. */
export const DELETE = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "write", async ({ scope }) =>
    Response.json({ deleted: await deleteSession(scope, id) }),
  );
});
