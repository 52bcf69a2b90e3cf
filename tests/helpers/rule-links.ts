/**
 * The rule-loading layout of issue 13 ("rule loading you can trust"), shared by the route test that loads it
 * (tests/integration/http/rule-loading-route.test.ts) and the Context panel's rendering of what the route answers
 * (tests/unit/components/context-panel.test.ts): a project whose `pkg/AGENTS.md` links to the root `AGENTS.md`,
 * whose `pkg/app/AGENTS.md` is 70,000 bytes, and whose `pkg/app/src/AGENTS.md` links out of the workspace beside a
 * `CLAUDE.md`, seen from a session working in `pkg/app/src`.
 */
import type { ResourceDiagnostic } from "@/components/api-client";

/** One line of the 70,000-byte `pkg/app/AGENTS.md` (700 of them). */
export const RULE_LINE = `${"r".repeat(99)}\n`;

/** Where `pkg/app/src/AGENTS.md` points: out of the workspace. */
export const ESCAPING_TARGET = "../../../../../../etc/AGENTS.md";

/**
 * The diagnostics `GET /api/sessions/:id/resources` answers for the layout in project `root`, for a session in
 * `cwd` (`root/pkg/app/src`), in the loader's order: the escaping link, the duplicate (info), the truncation.
 */
export const ruleLinkDiagnostics = (root: string, cwd: string): ResourceDiagnostic[] => [
  {
    type: "warning",
    message: `symlink ${cwd}/AGENTS.md -> ${ESCAPING_TARGET} leaves the workspace; not followed, and no other context file of ${cwd} is loaded in its place`,
    path: `${cwd}/AGENTS.md`,
    code: "symlink_escape",
    link: `${cwd}/AGENTS.md`,
    target: ESCAPING_TARGET,
  },
  {
    type: "info",
    message: `${root}/AGENTS.md is the same file as ${root}/pkg/AGENTS.md (${root}/AGENTS.md); loaded once`,
    path: `${root}/AGENTS.md`,
    code: "duplicate",
    canonical: `${root}/AGENTS.md`,
    duplicateOf: `${root}/pkg/AGENTS.md`,
  },
  {
    type: "warning",
    message: `Context file ${root}/pkg/app/AGENTS.md truncated: 70000 bytes, 65500 loaded (per-file cap 65536 bytes)`,
    path: `${root}/pkg/app/AGENTS.md`,
    code: "truncated",
    sizeBytes: 70000,
    loadedBytes: 65500,
    marker: `[Strata: truncated ${root}/pkg/app/AGENTS.md: loaded 65500 of 70000 bytes (per-file cap 65536 bytes)]`,
  },
];
