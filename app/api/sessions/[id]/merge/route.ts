import { mergeOrRequest } from "@/lib/checkpoints/merge-requests";
import { mergeRoutes } from "@/lib/http/merge-routes";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const routes = mergeRoutes(mergeOrRequest);

/**
 * The review of merging the session into the project's main line, nothing written:
 * `{ main, tip, base, files: [{ path, status, before, after }], conflicts, checkpoints, commit: null }`.
 */
export const GET = routes.GET;

/**
 * Merge the session into main (`{ resolutions?, main? }`: conflicting path → the text chosen, null = delete; the
 * reviewed main commit) → the same shape with `commit`; 409 `merge_conflict` with `conflicts` when a conflict has no
 * resolution, 409 `main_moved` when main is no longer the reviewed commit (nothing written either way). A member of a
 * team that requires approval gets a merge request instead (`request` in the answer; main untouched).
 */
export const POST = routes.POST;
