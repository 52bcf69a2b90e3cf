"use client";

import { useCallback, useEffect, useState } from "react";
import { DangerZone } from "./danger-zone";
import { InvitationsSection } from "./invitations-section";
import { InviteLinksSection } from "./invite-links-section";
import { MembersSection } from "./members-section";
import {
  type FullTeam,
  getTeam,
  type InviteLink,
  listInviteLinks,
  type TeamRole,
  teamErrorMessage,
} from "./team-api";
import styles from "./teams.module.css";

/**
 * The team settings page body: members (read-only below admin), invitations by email and invite links (admins and
 * owners), leave and delete. Data comes from Better Auth's full organization and the invite-link route, and is
 * reloaded after every change; a change of the caller's own role reloads the page (what they may do changed).
 */
export function TeamSettings({ teamId, me }: { teamId: string; me: { userId: string; role: TeamRole } }) {
  const [team, setTeam] = useState<FullTeam | null>(null);
  const [links, setLinks] = useState<InviteLink[]>([]);
  const [error, setError] = useState<string | null>(null);
  const canManage = me.role === "owner" || me.role === "admin";

  const load = useCallback(async () => {
    try {
      const [full, linkList] = await Promise.all([
        getTeam(teamId),
        canManage ? listInviteLinks(teamId) : Promise.resolve({ links: [] }),
      ]);
      setTeam(full);
      setLinks(linkList.links);
      setError(null);
    } catch (e) {
      setError(teamErrorMessage(e));
    }
  }, [teamId, canManage]);

  useEffect(() => {
    void load();
  }, [load]);

  if (!team)
    return error ? (
      <p className={styles.error} role="alert">
        Could not load the team: {error}{" "}
        <button type="button" className="btn btn-small" onClick={() => void load()}>
          Retry
        </button>
      </p>
    ) : (
      <p className="muted">
        <span className="spinner" /> Loading the team…
      </p>
    );

  const owners = team.members.filter((m) => m.role === "owner").length;
  const onlyOwner = me.role === "owner" && owners <= 1;
  const changed = (opts?: { self?: boolean }) => {
    if (opts?.self) window.location.reload();
    else void load();
  };

  return (
    <>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      <MembersSection team={team} me={me} onChanged={changed} />
      {canManage ? (
        <>
          <InvitationsSection
            teamId={team.id}
            invitations={team.invitations}
            canInviteOwners={me.role === "owner"}
            onChanged={changed}
          />
          <InviteLinksSection teamId={team.id} links={links} onChanged={changed} />
        </>
      ) : null}
      <DangerZone teamId={team.id} teamName={team.name} myRole={me.role} onlyOwner={onlyOwner} />
    </>
  );
}
