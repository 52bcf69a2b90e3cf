import { AgentDirWorkspace } from "@/components/agent/agent-dir-workspace";
import { withDb } from "@/lib/db/client";
import { requirePageCaller } from "@/lib/http/page-caller";

export const dynamic = "force-dynamic";

/** The caller's own agent dir (pi's `~/.pi/agent`); signed-out visitors are sent to sign in. */
export default async function AgentDirPage() {
  await withDb((scope) => requirePageCaller(scope, "/agent"));
  return <AgentDirWorkspace />;
}
