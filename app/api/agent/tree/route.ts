import { withAgentDir } from "@/lib/http/agent-context";
import { route } from "@/lib/http/errors";
import { listAgentTree } from "@/lib/projects/agent-dir";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The user's agent dir (`/.pi/agent` on the agent workspace) as a tree; empty until a file is written. */
export const GET = route(async () =>
  withAgentDir(async ({ vfs, root }) => Response.json({ root, entries: await listAgentTree(vfs) })),
);
