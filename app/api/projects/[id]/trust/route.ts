import { z } from "zod";
import { withProject } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, route } from "@/lib/http/errors";
import { applyProjectTrustChoice, TRUST_CHOICES, TrustChoiceError } from "@/lib/projects/session-resources";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ choice: z.enum(TRUST_CHOICES), sessionId: z.string().max(64).optional() });

/**
 * Store the caller's trust prompt choice for the project (pi's `resource-loader.ts`; stored choices in Postgres per user,
 * session ones on the session).
 */
export const POST = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(req, { limit: SMALL_JSON_LIMIT });
  return withProject(req, id, "write", async ({ scope, caller }) => {
    const body = input.parse(Body);
    const result = await applyProjectTrustChoice(scope, {
      projectId: id,
      ...body,
      userId: caller.userId,
    }).catch((error) => {
      throw error instanceof TrustChoiceError
        ? new ApiError(error.status, error.status === 404 ? "not_found" : "bad_request", error.message)
        : error;
    });
    return Response.json(result);
  });
});
