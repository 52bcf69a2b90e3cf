/**
 * The team pages' calls: Better Auth's organization routes (`/api/auth/organization/*`) and Strata's invite-link
 * routes, with the plain-fetch {@link callJson} of components/account (Better Auth's client would bring zod into the
 * browser bundle). {@link teamErrorMessage} turns a refusal into the sentence a user reads.
 */
import { AccountError, accountErrorMessage, callJson } from "@/components/account/auth-fetch";

export type TeamRole = "owner" | "admin" | "member" | "viewer";
export const TEAM_ROLES: readonly TeamRole[] = ["owner", "admin", "member", "viewer"];

/** What each role may do, in a few words (the role pickers' hints). */
export const ROLE_HINTS: Record<TeamRole, string> = {
  owner: "everything, including deleting the team",
  admin: "manage members, invitations and team rules",
  member: "prompt, edit files, create sessions, propose rules",
  viewer: "read projects, sessions and rules",
};

export interface TeamMember {
  id: string;
  userId: string;
  role: string;
  createdAt: string;
  user: { id: string; name: string; email: string };
}

export interface TeamInvitation {
  id: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string;
  inviterId: string;
}

export interface FullTeam {
  id: string;
  name: string;
  slug: string;
  members: TeamMember[];
  invitations: TeamInvitation[];
}

export interface InviteLink {
  id: string;
  role: TeamRole;
  expiresAt: string;
  revokedAt: string | null;
  uses: number;
  maxUses: number | null;
  createdAt: string;
  createdBy: { id: string; name: string; email: string };
  status: "active" | "expired" | "revoked" | "used_up";
}

const org = (path: string) => `/api/auth/organization/${path}`;

export const getTeam = (teamId: string) =>
  callJson<FullTeam>(`${org("get-full-organization")}?organizationId=${encodeURIComponent(teamId)}`);
export const createTeam = (name: string, slug: string) =>
  callJson<{ id: string }>(org("create"), { name, slug, keepCurrentActiveOrganization: true });
export const updateMemberRole = (teamId: string, memberId: string, role: TeamRole) =>
  callJson(org("update-member-role"), { organizationId: teamId, memberId, role });
export const removeMember = (teamId: string, memberId: string) =>
  callJson(org("remove-member"), { organizationId: teamId, memberIdOrEmail: memberId });
export const leaveTeam = (teamId: string) => callJson(org("leave"), { organizationId: teamId });
export const deleteTeam = (teamId: string) => callJson(org("delete"), { organizationId: teamId });
export const inviteMember = (teamId: string, email: string, role: TeamRole) =>
  callJson<TeamInvitation>(org("invite-member"), { organizationId: teamId, email, role });
export const cancelInvitation = (invitationId: string) =>
  callJson(org("cancel-invitation"), { invitationId });
export const acceptInvitation = (invitationId: string) =>
  callJson(org("accept-invitation"), { invitationId });
export const rejectInvitation = (invitationId: string) =>
  callJson(org("reject-invitation"), { invitationId });

const links = (teamId: string) => `/api/workspaces/${encodeURIComponent(teamId)}/invite-links`;
export const listInviteLinks = (teamId: string) => callJson<{ links: InviteLink[] }>(links(teamId));
export const createInviteLink = (
  teamId: string,
  body: { role: TeamRole; expiresInDays: number; maxUses: number | null },
) => callJson<{ link: InviteLink; token: string; path: string }>(links(teamId), body);
export const revokeInviteLink = (teamId: string, linkId: string) =>
  callJson(`${links(teamId)}/${encodeURIComponent(linkId)}`, undefined, "DELETE");
export const acceptInviteLink = (token: string) =>
  callJson<{ workspaceId: string; role: TeamRole; joined: boolean }>(
    `/api/invite-links/${encodeURIComponent(token)}/accept`,
    {},
  );

/**
 * The sentence for a refused team action. Better Auth's organization codes get words that say what to do next;
 * anything else goes through {@link accountErrorMessage}.
 */
export function teamErrorMessage(error: unknown): string {
  if (error instanceof AccountError) {
    switch (error.code) {
      case "ORGANIZATION_ALREADY_EXISTS":
      case "ORGANIZATION_SLUG_ALREADY_TAKEN":
        return "That URL name is taken by another team. Change it (or press “New suffix”) and try again.";
      case "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER":
        return "Only an owner can remove an owner, and a team keeps at least one owner: make another member an owner first.";
      case "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER":
        return "A team keeps at least one owner: make another member an owner before you change your own role.";
      case "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER":
        return "Only owners can make someone an owner or change an owner's role.";
      case "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER":
        return "Your role cannot remove members. Ask an owner or admin.";
      case "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE":
        return "Only owners can invite someone as an owner.";
      case "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION":
        return "Your role cannot invite people. Ask an owner or admin.";
      case "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION":
        return "Someone with this email is already a member of the team.";
      case "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION":
        return "Only owners can delete the team.";
      case "INVITATION_NOT_FOUND":
        return "This invitation no longer exists: it was accepted, declined, cancelled or it expired. Ask for a new one.";
      case "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION":
        return "This invitation is for another email address. Sign in with that address to accept it.";
      case "MEMBER_NOT_FOUND":
        return "That person is no longer a member (someone else may have removed them). Reload the page.";
    }
  }
  return accountErrorMessage(error);
}

/** `iso` as a short local date and time, e.g. "Dec 8, 2026, 12:00 PM". */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
