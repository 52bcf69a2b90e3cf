import { getMergeApproval, setMergeApproval } from "@/lib/checkpoints/merge-requests";
import { workspaceSwitchRoutes } from "@/lib/http/workspace-switch";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const routes = workspaceSwitchRoutes({ get: getMergeApproval, set: setMergeApproval, change: "manage" });

/** Whether members' merges into main wait for an admin's approval (any member) → `{ enabled }`. */
export const GET = routes.GET;

/**
 * Require approval of members' merges, or not (owners and admins of a team workspace): `{ enabled }` → `{ enabled }`;
 * 400 `not_a_team` for a personal workspace.
 */
export const PUT = routes.PUT;
