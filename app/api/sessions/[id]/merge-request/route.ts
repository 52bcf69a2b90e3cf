import { z } from "zod";
import { requirePermission } from "@/lib/access/authorize";
import { roleAllows } from "@/lib/auth/roles";
import {
  approvalNeeded,
  commentMergeRequest,
  decideMergeRequest,
  MAX_COMMENT,
  sessionMergeRequest,
} from "@/lib/checkpoints/merge-requests";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { actorOf } from "@/lib/http/checkpoint-body";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

const Body = z.discriminatedUnion("action", [
  z.object({ action: z.literal("comment"), comment: z.string().min(1).max(MAX_COMMENT) }).strict(),
  z
    .object({
      action: z.enum(["approve", "reject"]),
      /** The request's `tipOid` the decider saw: another answers 409 `request_changed`. */
      tip: z.string().regex(/^[0-9a-f]{40}$/),
      comment: z.string().max(MAX_COMMENT).optional(),
    })
    .strict(),
]);

/**
 * The session's newest merge request and what the caller may do: `{ request: MergeRequestView | null,
 * approvalNeeded, canDecide }` (docs/checkpoints.md, "Approval in a team").
 */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withSession(request, id, "read", async ({ scope, session, access }) =>
    Response.json({
      request: await sessionMergeRequest(scope, session.id),
      approvalNeeded: await approvalNeeded(scope, access),
      canDecide: roleAllows(access.role, "manage"),
    }),
  );
});

/**
 * `{ action: "comment", comment }` (write) → `{ request }`; `{ action: "approve" | "reject", comment? }` (owners and
 * admins) → `{ request, merge }`: approve merges the work as asked into main now. 409 `no_open_request`,
 * `merge_conflict` (main changed in the same places since: nothing decided).
 */
export const POST = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  return withSession(request, id, "write", async ({ scope, caller, session, project, access }) => {
    const body = input.parse(Body);
    if (body.action === "comment")
      return Response.json({
        request: await commentMergeRequest(scope, session.id, caller.userId, body.comment),
      });
    requirePermission(access, "manage");
    return Response.json(
      await decideMergeRequest({
        scope,
        session,
        project,
        ...actorOf(caller),
        decision: body.action,
        requestTip: body.tip,
        comment: body.comment,
      }),
    );
  });
});
