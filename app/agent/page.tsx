import { AgentDirWorkspace } from "@/components/agent/agent-dir-workspace";

export const dynamic = "force-dynamic";

export default function AgentDirPage() {
  return <AgentDirWorkspace />;
}
