import { getSandboxEnabled, setSandboxEnabled } from "@/lib/exec/sandbox-setting";
import { workspaceSwitchRoutes } from "@/lib/http/workspace-switch";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const routes = workspaceSwitchRoutes({ get: getSandboxEnabled, set: setSandboxEnabled, change: "delete" });

/** Whether the workspace's agent may use the sandbox (any member) → `{ enabled }`. */
export const GET = routes.GET;

/**
 * Turn the sandbox on or off (the workspace's owner only: it lets the agent run the project's code):
 * `{ enabled: boolean }` → `{ enabled }`. Sessions started afterwards see the change (docs/sandbox.md).
 */
export const PUT = routes.PUT;
