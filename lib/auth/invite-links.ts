/**
 * "Anyone with the link" invitations to a team (table `workspace_invite_links`). Creating one returns a random token
 * (32 bytes, base64url) once, as the path `/invite/<token>`; only its SHA-256 (hex) is stored, so the database alone
 * cannot rebuild a link. A link adds whoever opens it (signed in) as a member with its role until it expires, is
 * revoked, or has been used `maxUses` times. Accepting is idempotent for someone already in the team (no role change,
 * no use counted), and the use count never exceeds `maxUses` under concurrent accepts (the link row is locked while a
 * use is counted). Authorisation (who may create, list or revoke: `manage`) is the caller's job (lib/http/access.ts).
 */

import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import type { Caller } from "./caller";
import { asRole, type Role } from "./roles";

/** The lifetimes a link may have, in days. */
export const INVITE_LINK_EXPIRY_DAYS = [1, 7, 30] as const;
/** The largest `maxUses` a link may have. */
export const INVITE_LINK_MAX_USES = 1000;
/** The roles a link may grant (not owner: anyone holding the link would own the team). */
export const INVITE_LINK_ROLES = ["admin", "member", "viewer"] as const satisfies readonly Role[];

/** A refusal of this module: `status` and `code` are what the HTTP API answers. */
export class InviteLinkError extends Error {
  constructor(
    readonly status: 400 | 404 | 410,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "InviteLinkError";
  }
}

/** A link as its team's managers see it (never the token). Dates are ISO 8601 strings. */
export interface InviteLinkView {
  id: string;
  workspaceId: string;
  role: Role;
  expiresAt: string;
  revokedAt: string | null;
  uses: number;
  /** null: unlimited until expiry. */
  maxUses: number | null;
  createdAt: string;
  createdBy: { id: string; name: string; email: string };
  /** `active`, or why it no longer adds anyone. */
  status: "active" | "expired" | "revoked" | "used_up";
}

/** What the invite page shows about a link before the visitor joins. */
export interface InviteLinkPreview {
  workspaceId: string;
  teamName: string;
  role: Role;
  inviterName: string;
  expiresAt: string;
  status: InviteLinkView["status"];
}

interface LinkRow {
  id: string;
  workspace_id: string;
  role: string;
  expires_at: Date | string;
  revoked_at: Date | string | null;
  uses: number;
  max_uses: number | null;
  created_at: Date | string;
  created_by: string;
  creator_name: string;
  creator_email: string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function statusOf(
  row: Pick<LinkRow, "expires_at" | "revoked_at" | "uses" | "max_uses">,
  now: Date,
): InviteLinkView["status"] {
  if (row.revoked_at) return "revoked";
  if (new Date(row.expires_at).getTime() <= now.getTime()) return "expired";
  if (row.max_uses !== null && row.uses >= row.max_uses) return "used_up";
  return "active";
}

function toView(row: LinkRow, now: Date): InviteLinkView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    role: asRole(row.role) ?? "viewer",
    expiresAt: iso(row.expires_at),
    revokedAt: row.revoked_at ? iso(row.revoked_at) : null,
    uses: row.uses,
    maxUses: row.max_uses,
    createdAt: iso(row.created_at),
    createdBy: { id: row.created_by, name: row.creator_name, email: row.creator_email },
    status: statusOf(row, now),
  };
}

/** A new link token: 32 random bytes, base64url without padding (43 characters). */
export function newInviteToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The stored form of a token: its SHA-256, lowercase hex. */
export async function hashInviteToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether `token` has the shape {@link newInviteToken} makes (anything else is unknown without a query). */
function wellFormed(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

const SELECT_LINK = `SELECT l.id, l.workspace_id, l.role, l.expires_at, l.revoked_at, l.uses, l.max_uses, l.created_at,
    l.created_by, u.name AS creator_name, u.email AS creator_email
  FROM workspace_invite_links l JOIN users u ON u.id = l.created_by`;

/**
 * Create a link to `workspaceId` (a team) granting `role`, valid `expiresInDays` days, for at most `maxUses` joins
 * (null: unlimited until expiry). `creatorRole` is the creator's own role in the team.
 * @returns the link and its token (shown once; only its hash is kept).
 * @throws InviteLinkError 400 `bad_request` for a role a link cannot grant, an expiry other than 1, 7 or 30 days, a
 *   `maxUses` that is not a whole number from 1 to 1000, or a workspace that is not a team.
 */
export async function createInviteLink(
  scope: DbScope,
  input: {
    workspaceId: string;
    createdBy: string;
    role: string;
    expiresInDays: number;
    maxUses: number | null;
  },
  now: Date = new Date(),
): Promise<{ link: InviteLinkView; token: string }> {
  const role = asRole(input.role);
  if (role === "owner")
    throw new InviteLinkError(
      400,
      "bad_request",
      "An invite link cannot make owners: anyone holding it would own the team. Invite by email with the owner role, or make a member an owner afterwards.",
    );
  if (!role || !(INVITE_LINK_ROLES as readonly string[]).includes(role))
    throw new InviteLinkError(400, "bad_request", "The role must be admin, member or viewer.");
  if (!(INVITE_LINK_EXPIRY_DAYS as readonly number[]).includes(input.expiresInDays))
    throw new InviteLinkError(400, "bad_request", "A link expires after 1, 7 or 30 days.");
  const { maxUses } = input;
  if (maxUses !== null && (!Number.isInteger(maxUses) || maxUses < 1 || maxUses > INVITE_LINK_MAX_USES))
    throw new InviteLinkError(
      400,
      "bad_request",
      `The maximum number of uses must be a whole number from 1 to ${INVITE_LINK_MAX_USES}, or empty for no limit.`,
    );
  const kind = await scope.query<{ kind: string }>("SELECT kind FROM workspaces WHERE id = $1", [
    input.workspaceId,
  ]);
  if (kind[0]?.kind !== "team")
    throw new InviteLinkError(
      400,
      "bad_request",
      "Only a team takes invitations; a personal workspace has one member.",
    );
  const token = newInviteToken();
  const expiresAt = new Date(now.getTime() + input.expiresInDays * 24 * 3600 * 1000);
  const inserted = await scope.query<{ id: string }>(
    `INSERT INTO workspace_invite_links (workspace_id, token_hash, role, created_by, expires_at, max_uses, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [input.workspaceId, await hashInviteToken(token), role, input.createdBy, expiresAt, maxUses, now],
  );
  const rows = await scope.query<LinkRow>(`${SELECT_LINK} WHERE l.id = $1`, [inserted[0].id]);
  return { link: toView(rows[0], now), token };
}

/** The links of `workspaceId`, newest first, revoked and expired ones included (with their status). */
export async function listInviteLinks(
  scope: DbScope,
  workspaceId: string,
  now: Date = new Date(),
): Promise<InviteLinkView[]> {
  const rows = await scope.query<LinkRow>(
    `${SELECT_LINK} WHERE l.workspace_id = $1 ORDER BY l.created_at DESC, l.id`,
    [workspaceId],
  );
  return rows.map((row) => toView(row, now));
}

/**
 * Revoke link `linkId` of `workspaceId` (revoking it again changes nothing).
 * @throws InviteLinkError 404 `not_found` when the workspace has no such link.
 */
export async function revokeInviteLink(
  scope: DbScope,
  workspaceId: string,
  linkId: string,
  now: Date = new Date(),
): Promise<InviteLinkView> {
  const notFound = new InviteLinkError(404, "not_found", `Invite link ${linkId} not found`);
  if (!isUuid(linkId)) throw notFound;
  const updated = await scope.query<{ id: string }>(
    `UPDATE workspace_invite_links SET revoked_at = COALESCE(revoked_at, $3)
     WHERE id = $1 AND workspace_id = $2 RETURNING id`,
    [linkId, workspaceId, now],
  );
  if (!updated[0]) throw notFound;
  const rows = await scope.query<LinkRow>(`${SELECT_LINK} WHERE l.id = $1`, [linkId]);
  return toView(rows[0], now);
}

/** What the invite page shows for `token`, or null for an unknown token. */
export async function previewInviteLink(
  scope: DbScope,
  token: string,
  now: Date = new Date(),
): Promise<InviteLinkPreview | null> {
  if (!wellFormed(token)) return null;
  const rows = await scope.query<LinkRow & { team_name: string }>(
    `SELECT l.id, l.workspace_id, l.role, l.expires_at, l.revoked_at, l.uses, l.max_uses, l.created_at, l.created_by,
       u.name AS creator_name, u.email AS creator_email, w.name AS team_name
     FROM workspace_invite_links l JOIN users u ON u.id = l.created_by JOIN workspaces w ON w.id = l.workspace_id
     WHERE l.token_hash = $1`,
    [await hashInviteToken(token)],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    workspaceId: row.workspace_id,
    teamName: row.team_name,
    role: asRole(row.role) ?? "viewer",
    inviterName: row.creator_name,
    expiresAt: iso(row.expires_at),
    status: statusOf(row, now),
  };
}

/** The words for a link that no longer adds anyone. */
export const INVITE_LINK_REFUSALS: Record<Exclude<InviteLinkView["status"], "active">, string> = {
  expired: "This invite link has expired. Ask a team owner or admin for a new one.",
  revoked: "This invite link was revoked. Ask a team owner or admin for a new one.",
  used_up:
    "This invite link has been used as many times as it allows. Ask a team owner or admin for a new one.",
};

/**
 * Join the team of link `token` as `caller`, with the link's role, counting one use. Someone already in the team
 * stays as they are (no role change, no use counted): `joined` is then false.
 * @throws InviteLinkError 404 `not_found` for an unknown token; 410 `invite_expired`, `invite_revoked` or
 *   `invite_used_up` (messages in {@link INVITE_LINK_REFUSALS}) for a link that no longer adds anyone.
 */
export async function acceptInviteLink(
  scope: DbScope,
  token: string,
  caller: Pick<Caller, "userId">,
  now: Date = new Date(),
): Promise<{ workspaceId: string; role: Role; joined: boolean }> {
  const unknown = new InviteLinkError(
    404,
    "not_found",
    "This invite link does not exist. Check that you copied all of it, or ask for a new one.",
  );
  if (!wellFormed(token)) throw unknown;
  const hash = await hashInviteToken(token);
  return scope.transaction(async (q) => {
    // The row lock orders concurrent accepts of one link: each sees the uses the previous one counted.
    const links = await q<LinkRow>(
      `SELECT id, workspace_id, role, expires_at, revoked_at, uses, max_uses FROM workspace_invite_links
       WHERE token_hash = $1 FOR UPDATE`,
      [hash],
    );
    const link = links[0];
    if (!link) throw unknown;
    const member = await q<{ role: string }>(
      "SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2",
      [link.workspace_id, caller.userId],
    );
    if (member[0])
      return { workspaceId: link.workspace_id, role: asRole(member[0].role) ?? "viewer", joined: false };
    const status = statusOf(link, now);
    if (status !== "active") throw new InviteLinkError(410, `invite_${status}`, INVITE_LINK_REFUSALS[status]);
    const role = asRole(link.role) ?? "viewer";
    await q(
      `INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id, user_id) DO NOTHING`,
      [link.workspace_id, caller.userId, role, now],
    );
    await q("UPDATE workspace_invite_links SET uses = uses + 1 WHERE id = $1", [link.id]);
    return { workspaceId: link.workspace_id, role, joined: true };
  });
}
