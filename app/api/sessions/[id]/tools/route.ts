import { z } from "zod";
import { getSessionTools, setSessionTools } from "@/lib/agent-session/session-tools";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { sessionProviderEnv } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const TOOL_NAMES = ["read", "bash", "edit", "write", "grep", "find", "ls"] as const;
const Body = z
  .object({
    active: z
      .array(z.enum(TOOL_NAMES, { message: `a tool name is one of ${TOOL_NAMES.join(", ")}` }))
      .max(TOOL_NAMES.length * 2),
  })
  .strict();

/** The session's tools on its current branch: `{ tools: [{ name, summary, active }], active: [names] }`. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(request, id, "read", async ({ scope, caller }) =>
    Response.json(await getSessionTools(scope, id, { userId: caller.userId })),
  );
});

/**
 * Turn tools on and off (pi `setActiveToolsByName`): body `{ active: [names in order] }`; the change is recorded now
 * as the system patch the next prompt would start with (lib/agent-session/session-tools.ts). Answers the new state and
 * `patch` when one was written; 409 while a run holds the session.
 */
export const PUT = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  return withSession(request, id, "write", async ({ scope, caller }) => {
    const body = input.parse(Body);
    return Response.json(
      await setSessionTools(scope, id, body.active, {
        userId: caller.userId,
        // For a session without entries: its first model_change names the default model (pi's `agent-session.ts`).
        env: await sessionProviderEnv(scope, id, process.env),
      }),
    );
  });
});
