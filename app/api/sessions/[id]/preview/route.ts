import { z } from "zod";
import { withSession } from "@/lib/http/access";
import { PROMPT_JSON_LIMIT, readJsonInput } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { previewStoredSession } from "@/lib/inspector/session-preview";
import { workspaceProviderEnv } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const THINKING = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;
const Preview = z
  .object({
    // The prompt route's limit: every prompt that can be sent can be previewed (its JSON can exceed 64 KiB).
    text: z.string().max(200_000),
    leafId: z.string().max(200).nullable().optional(),
    model: z.string().max(200).optional(),
    tools: z.string().max(2000).optional(),
    thinkingLevel: z
      .enum(THINKING, { message: `thinking level must be one of ${THINKING.join(", ")}` })
      .optional(),
  })
  .strict();

/**
 * The context the session's next prompt would send, stopped before the network — the inspector's layers (entries
 * on the path, agent messages, context hook changes, LLM messages with blockImages, the transform report, the
 * provider payload with placeholder keys and secrets masked) plus sections and their sources, tool declarations,
 * token estimate and recent cost: `{ text, leafId?, model?, tools?, thinkingLevel? }` → the preview JSON of
 * `strata preview` (`previewStoredSession`; docs/http-api.md). Changes nothing (read access).
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: PROMPT_JSON_LIMIT });
  return withSession(request, id, "read", async ({ scope, caller, session, project }) => {
    const body = input.parse(Preview);
    return Response.json(
      await previewStoredSession(scope, {
        session,
        project,
        userId: caller.userId,
        text: body.text,
        ...(body.leafId !== undefined ? { leafId: body.leafId } : {}),
        ...(body.model ? { model: body.model } : {}),
        ...(body.tools ? { tools: body.tools } : {}),
        ...(body.thinkingLevel ? { thinkingLevel: body.thinkingLevel } : {}),
        // The workspace's models (its secrets win over the server env); keys are placeholders and redacted anyway.
        env: await workspaceProviderEnv(scope, project.workspaceId, process.env),
      }),
    );
  });
});
