/**
 * Who last changed each resource file in effect for a session, and when, for the Context panel: team files from
 * the rules repository's git history (lib/rules `lastChanges`, on main or the previewed proposal), project files
 * from the project repository's history (the session's checkpoint branch, else HEAD; a bounded walk, so a file
 * unchanged for longer than {@link PROJECT_HISTORY_BUDGET} commits falls back), personal files (the user's agent
 * dir) from their modification time with the user's own name. Where history says nothing the file's VFS
 * modification time is shown with the name "—".
 */
import * as git from "isomorphic-git";
import type { DbScope } from "@/lib/db/client";
import type { ResourceProvenance } from "@/lib/resources/resource-loader";
import { lastChanges, RULES_ROOT } from "@/lib/rules";
import { createGitFs } from "@/lib/vfs/git-fs";
import type { FileSystem } from "@/lib/vfs/types";
import type { Vfs } from "@/lib/vfs/vfs";
import type { SessionTeamRules } from "./team-rules-resources";

/** A provenance entry with its last change. */
export interface ProvenanceView extends ResourceProvenance {
  /** Who last changed the file (git author name, the user's name for personal files), or "—" when unknown. */
  lastChangedBy: string;
  /** When, ISO 8601; null when not even a modification time is known. */
  lastChangedAt: string | null;
}

/** Commits walked per project file before giving up on its history. */
export const PROJECT_HISTORY_BUDGET = 64;

const UNKNOWN = "—";

interface Change {
  name: string;
  timestamp: number;
}

async function mtimeOf(fs: FileSystem, path: string): Promise<string | null> {
  try {
    return new Date((await fs.stat(path)).mtimeMs).toISOString();
  } catch {
    return null;
  }
}

/**
 * The newest commit reachable from `ref` in the repository at `repoDir` that changed each of `paths` (relative
 * to `repoDir`), following TREESAME parents like git's history simplification; null per path when the repository
 * or ref is missing, the path was never committed, or the walk exceeds `budget` commits.
 */
export async function projectLastChanges(
  vfs: Vfs,
  repoDir: string,
  refs: string[],
  paths: string[],
  budget = PROJECT_HISTORY_BUDGET,
): Promise<Map<string, Change | null>> {
  const out = new Map<string, Change | null>(paths.map((p) => [p, null]));
  const gfs = createGitFs(vfs);
  const gitdir = `${repoDir}/.git`;
  const cache = {};
  let head: string | null = null;
  for (const ref of refs) {
    try {
      head = await git.resolveRef({ fs: gfs, gitdir, ref });
      break;
    } catch {
      // Try the next ref.
    }
  }
  if (!head) return out;
  const commits = new Map<string, { tree: string; parents: string[]; author: Change }>();
  const commit = async (oid: string) => {
    let c = commits.get(oid);
    if (!c) {
      const { commit: raw } = await git.readCommit({ fs: gfs, gitdir, oid, cache });
      c = {
        tree: raw.tree,
        parents: raw.parent,
        author: { name: raw.author.name, timestamp: raw.author.timestamp * 1000 },
      };
      commits.set(oid, c);
    }
    return c;
  };
  const trees = new Map<string, Map<string, string>>();
  const entryOid = async (tree: string, path: string): Promise<string | null> => {
    let oid = tree;
    for (const part of path.split("/")) {
      let entries = trees.get(oid);
      if (!entries) {
        try {
          const { tree: t } = await git.readTree({ fs: gfs, gitdir, oid, cache });
          entries = new Map(t.map((e) => [e.path, e.oid]));
        } catch {
          entries = new Map();
        }
        trees.set(oid, entries);
      }
      const next = entries.get(part);
      if (!next) return null;
      oid = next;
    }
    return oid;
  };
  for (const path of paths) {
    try {
      let cur = head;
      for (let steps = 0; steps < budget; steps++) {
        const c = await commit(cur);
        const here = await entryOid(c.tree, path);
        let next: string | null = null;
        for (const p of c.parents) {
          if ((await entryOid((await commit(p)).tree, path)) === here) {
            next = p;
            break;
          }
        }
        if (next === null) {
          if (here !== null) out.set(path, c.author);
          break;
        }
        cur = next;
      }
    } catch {
      // Unreadable history: no answer for this path.
    }
  }
  return out;
}

/**
 * Each provenance entry with who last changed it and when (see the module comment).
 * @param input.userName the session user's display name (for personal files).
 * @throws the driver's error when a query fails (git read failures only lose the history).
 */
export async function describeProvenance(
  scope: DbScope,
  input: {
    provenance: ResourceProvenance[];
    workspaceId: string;
    projectRoot: string;
    sessionId: string;
    vfs: Vfs;
    agentFs: FileSystem;
    team: SessionTeamRules | null;
    userName: string;
  },
): Promise<ProvenanceView[]> {
  const { provenance, team, vfs } = input;
  const teamRel = (p: string) => p.slice(RULES_ROOT.length + 1);
  const teamPaths = provenance.filter((p) => p.filesystem === "team").map((p) => teamRel(p.path));
  const teamChanges =
    team && teamPaths.length > 0
      ? await lastChanges(scope, input.workspaceId, teamPaths, team.ref)
      : new Map<string, { authorName: string; timestamp: number } | null>();
  const root = input.projectRoot.replace(/\/+$/, "");
  const inProject = (p: string) => p.startsWith(`${root}/`);
  const projectPaths = provenance
    .filter((p) => p.filesystem === "project" && inProject(p.path))
    .map((p) => p.path.slice(root.length + 1));
  const projectChanges =
    projectPaths.length > 0
      ? await projectLastChanges(
          vfs,
          root,
          [`refs/heads/strata/session-${input.sessionId}`, "HEAD"],
          projectPaths,
        )
      : new Map<string, Change | null>();
  const out: ProvenanceView[] = [];
  for (const p of provenance) {
    let change: Change | null = null;
    if (p.filesystem === "team") {
      const c = teamChanges.get(teamRel(p.path));
      change = c ? { name: c.authorName, timestamp: c.timestamp } : null;
    } else if (p.filesystem === "project" && inProject(p.path)) {
      change = projectChanges.get(p.path.slice(root.length + 1)) ?? null;
    }
    if (change) {
      out.push({ ...p, lastChangedBy: change.name, lastChangedAt: new Date(change.timestamp).toISOString() });
      continue;
    }
    const fs = p.filesystem === "agent" ? input.agentFs : p.filesystem === "team" && team ? team.fs : vfs;
    out.push({
      ...p,
      lastChangedBy: p.filesystem === "agent" ? input.userName : UNKNOWN,
      lastChangedAt: await mtimeOf(fs, p.path),
    });
  }
  return out;
}
