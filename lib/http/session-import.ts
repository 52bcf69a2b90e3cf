/** The answer of a session import (one request or a committed upload). */
import type { DbScope } from "@/lib/db/client";
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
  // The leaf row's derived settings name the branch's model; loading the context path would parse every entry.
  const [leaf] = imported.session.leafId
    ? await scope.query<{ model_provider: string | null; model_id: string | null }>(
        "SELECT model_provider, model_id FROM session_entries WHERE session_id = $1 AND id = $2",
        [imported.session.id, imported.session.leafId],
      )
    : [];
  const model =
    leaf?.model_provider != null && leaf.model_id != null ? `${leaf.model_provider}/${leaf.model_id}` : null;
  return Response.json(
    {
      session: toSessionView(imported.session, model),
      diagnostics: imported.diagnostics,
    },
    { status: 201 },
  );
}
