/**
 * Branch names for the Push dialog, the same rules as the server's (lib/remote/refs.ts is zod-free and has no I/O):
 * a session's branch is `strata/<slug of its title>`.
 */
import { branchNameProblem, sessionBranchName } from "@/lib/remote/refs";
import { sessionRef } from "@/lib/vfs/session-ref";

export { branchNameProblem, sessionBranchName };

/** The checkpoint ref of a session. */
export const sessionRefOf = sessionRef;
