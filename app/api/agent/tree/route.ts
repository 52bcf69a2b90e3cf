import { withAgentDir } from "@/lib/http/agent-context";
import { route } from "@/lib/http/errors";
import { listAgentTree } from "@/lib/projects/agent-dir";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The caller's agent dir (`/.pi/agent` on their agent workspace) as a tree; empty until a file is written. */
export const GET = route(async (req: Request) =>
  withAgentDir(req, async ({ vfs, root }) => Response.json({ root, entries: await listAgentTree(vfs) })),
);
