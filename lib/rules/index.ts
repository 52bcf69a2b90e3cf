/**
 * Team-shared rules (lib/rules): a team workspace's rules root `/.team` (`RULES_ROOT`) is a git work tree with its
 * repository in `/.team/.git`, kept with the isomorphic-git-on-VFS helpers of lib/vfs/git.ts. It holds whatever the
 * team puts there (`AGENTS.md`, `skills/`, `prompts/`, `SYSTEM.md`, `APPEND_SYSTEM.md`; the limits of
 * lib/vfs/limits.ts apply). main is what every member's resource loader reads: owners and admins change it directly
 * (`writeRulesFiles`: the work tree written and a commit by them on main, every change a commit), members propose
 * (`createProposal`: branch `proposals/<id>` plus a `rule_proposals` row, the work tree untouched) and admins
 * approve (fast-forward or merge commit, then checkout into `/.team`) or reject. History (`lastChange`,
 * `rulesLog`) gives provenance; `readRulesTree(…, { proposalId })` gives a proposal's files for previewing it.
 * Concurrent writers are serialised by the VFS's optimistic concurrency (a conflicting flush is retried).
 * Errors are the typed classes of ./errors (mapped by lib/http/errors.ts). See docs/team-rules.md.
 */

export * from "./errors";
export * from "./proposals";
export * from "./repo";
export * from "./types";
