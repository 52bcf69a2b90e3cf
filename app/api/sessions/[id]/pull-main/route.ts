import { pullMainIntoSession } from "@/lib/checkpoints/pull-main";
import { mergeRoutes } from "@/lib/http/merge-routes";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const routes = mergeRoutes(pullMainIntoSession);

/**
 * The review of bringing main into the session, nothing written:
 * `{ main, tip, base, files: [{ path, status, before, after }], conflicts, mainCommits, commit: null }`.
 */
export const GET = routes.GET;

/**
 * Merge main into the session's files (`{ resolutions?, main? }`) → the same shape with `commit` (the merge commit on
 * the session's branch); 409 `merge_conflict` with `conflicts`, 409 `main_moved`, 409 `run_active` while a run holds
 * the session (nothing written in each case).
 */
export const POST = routes.POST;
