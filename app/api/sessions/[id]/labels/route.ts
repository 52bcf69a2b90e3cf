import { z } from "zod";
import { labelEntry } from "@/lib/agent-session/session-tree";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z
  .object({ entryId: z.string().min(1).max(200), label: z.string().max(200).optional() })
  .strict();

/**
 * Set or clear an entry's label (pi's tree label edit, a `label` entry; an empty or missing label clears it)
 * → `{ entryId, label?, labelEntryId }`. Held as the session's run for its moment (409 while a run is live).
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  await withSession(request, id, "write", async () => undefined);
  const body = input.parse(Body);
  return withSessionRun(
    id,
    async ({ scope }) => Response.json(await labelEntry(scope, id, body.entryId, body.label)),
    request.signal,
    "prompt",
  );
});
