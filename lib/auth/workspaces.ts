/**
 * Workspaces as Better Auth sees them: every user gets a personal workspace (kind `personal`, the user its only
 * member, role owner) when the account is created; only teams (kind `team`) take invitations or can be deleted.
 */
import { APIError } from "better-auth/api";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";

/** Create `userId`'s personal workspace and membership (idempotent: a second call changes nothing). */
export async function createUserWorkspaces(db: Db, userId: string): Promise<void> {
  await db.execute(sql`
    WITH ws AS (
      INSERT INTO workspaces (name, kind, owner_user_id, slug)
      VALUES ('Personal', 'personal', ${userId}, ${`personal-${userId}`})
      ON CONFLICT (slug) DO UPDATE SET slug = EXCLUDED.slug
      RETURNING id
    )
    INSERT INTO workspace_members (workspace_id, user_id, role)
    SELECT id, ${userId}, 'owner' FROM ws
    ON CONFLICT (workspace_id, user_id) DO NOTHING`);
}

async function kindOf(db: Db, workspaceId: string): Promise<string | undefined> {
  const result = await db.execute<{ kind: string }>(
    sql`SELECT kind FROM workspaces WHERE id = ${workspaceId}`,
  );
  return result.rows[0]?.kind;
}

/** Better Auth hook: only a team takes invitations. @throws APIError 400 for a personal or agent workspace. */
export async function guardInvitation(db: Db, workspaceId: string): Promise<void> {
  if ((await kindOf(db, workspaceId)) !== "team")
    throw new APIError("BAD_REQUEST", {
      message: "Only a team takes invitations; a personal workspace has one member.",
    });
}

/**
 * Better Auth hook: only a team can be deleted, and its shares are revoked first.
 * @throws APIError 400 for a personal or agent workspace.
 */
export async function guardWorkspaceDelete(db: Db, workspaceId: string): Promise<void> {
  if ((await kindOf(db, workspaceId)) !== "team")
    throw new APIError("BAD_REQUEST", {
      message: "A personal workspace cannot be deleted; delete its projects instead.",
    });
  // A team's shares are revoked before it goes (docs/sharing.md): their rows RESTRICT the cascade to its projects.
  // Not one transaction with Better Auth's delete (it runs apart from its hooks): should that fail, the shares stay
  // revoked, which is the safe side.
  await db.execute(sql`DELETE FROM session_shares WHERE workspace_id = ${workspaceId}`);
}

/** The slugs Strata gives its own workspaces (`personal-<user id>`, `agent-<user id>`). */
const RESERVED_SLUG = /^(personal|agent)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Better Auth hook (organization create and update): a team's slug may not take the form Strata reserves for a
 * user's personal or agent workspace. A team named `agent-<someone's id>` made that user's agent workspace
 * impossible to create (unique slug), so every agent-dir read and prompt of theirs failed with a 500.
 * `workspaceId` (an update): a workspace keeps the slug it already has.
 * @throws APIError 400 naming the reserved prefixes.
 */
export async function guardSlug(db: Db, slug: unknown, workspaceId?: string): Promise<void> {
  if (typeof slug !== "string" || !RESERVED_SLUG.test(slug.trim())) return;
  if (workspaceId) {
    const result = await db.execute<{ slug: string }>(
      sql`SELECT slug FROM workspaces WHERE id = ${workspaceId}`,
    );
    if (result.rows[0]?.slug === slug) return;
  }
  throw new APIError("BAD_REQUEST", {
    message:
      "Slugs of the form “personal-<id>” and “agent-<id>” are reserved for Strata's own workspaces; choose another.",
  });
}

/** A member row as Better Auth hands it to its hooks (or returns it from `/organization/leave`). */
export interface ChangedMember {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt?: Date | string;
}

const NO_OWNER =
  "This change would leave the team without an owner (another owner changed at the same moment). Make someone else an owner first, then try again.";

/**
 * Better Auth hook (after a member's role changed, a member was removed, or one left): undo this change and refuse
 * when the team is left with no owner. Better Auth counts the owners before it writes, so two concurrent requests —
 * two owners demoting each other, or both leaving — each passed its check and left the team with no owner
 * (measured: 4 of 4 tries). Each request checks after its own write, so the later of two concurrent ones sees both
 * writes and undoes its own. Only a change that took an owner away is checked. `previousRole`: the role before a
 * role change; absent for a removal.
 * @throws APIError 400 (the change undone).
 */
export async function keepAnOwner(db: Db, member: ChangedMember, previousRole?: string): Promise<void> {
  const isOwner = (role: string | undefined) => (role ?? "").split(",").includes("owner");
  if (!isOwner(previousRole ?? member.role)) return;
  const owners = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM workspace_members
        WHERE workspace_id = ${member.organizationId} AND 'owner' = ANY(string_to_array(role, ','))`,
  );
  if (Number(owners.rows[0]?.n ?? 0) > 0) return;
  if (previousRole !== undefined)
    await db.execute(sql`UPDATE workspace_members SET role = ${previousRole} WHERE id = ${member.id}`);
  else
    await db.execute(sql`
      INSERT INTO workspace_members (id, workspace_id, user_id, role, created_at)
      VALUES (${member.id}, ${member.organizationId}, ${member.userId}, ${member.role},
              ${new Date(member.createdAt ?? Date.now())})
      ON CONFLICT DO NOTHING`);
  throw new APIError("BAD_REQUEST", { code: "TEAM_NEEDS_AN_OWNER", message: NO_OWNER });
}
