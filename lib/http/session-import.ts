/** The answer of a session import (one request or a committed upload). */
import type { DbScope } from "@/lib/db/client";
import { loadContextPath } from "@/lib/session/context-load";
import type { JsonlDiagnostic } from "@/lib/session/jsonl";
import type { SessionRow } from "@/lib/session/store";
import { toSessionView } from "./views";

/**
 * `201 { session, diagnostics }` for an imported session: the session view (with the branch's model as
 * `provider/modelId`, or null) and the parse diagnostics (line-numbered).
 */
export async function importedSessionResponse(
  scope: DbScope,
  imported: { session: SessionRow; diagnostics: JsonlDiagnostic[] },
): Promise<Response> {
  const { model } = (await loadContextPath(scope, imported.session.id)).settings;
  return Response.json(
    {
      session: toSessionView(imported.session, model ? `${model.provider}/${model.modelId}` : null),
      diagnostics: imported.diagnostics,
    },
    { status: 201 },
  );
}
