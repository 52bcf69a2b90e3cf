"use client";

import { SettingSwitch } from "./setting-switch";

/**
 * A team's "Merges need approval" card (`PUT /api/workspaces/<id>/merge-approval`, owners and admins): when on, a
 * member's "Merge into main" becomes a merge request an owner or admin approves or rejects (docs/checkpoints.md).
 */
export function MergeApprovalSetting({
  workspaceId,
  initial,
  canChange,
}: {
  workspaceId: string;
  initial: boolean;
  canChange: boolean;
}) {
  return (
    <SettingSwitch
      title="Merges into main need approval"
      endpoint={`/api/workspaces/${encodeURIComponent(workspaceId)}/merge-approval`}
      initial={initial}
      canChange={canChange}
      whoCanChange="Only the team's owners and admins change this."
      said={(on) =>
        on
          ? "On. Members' merges into main now wait for an owner's or admin's approval."
          : "Off. Members merge their sessions into main themselves."
      }
    >
      <p>
        When on, a member&apos;s &ldquo;Merge into main&rdquo; asks for approval instead: the session&apos;s
        work is kept as it was asked, with the texts chosen for conflicts, and an owner or admin reads the
        same review, comments, and approves (the merge happens then, in their name) or rejects it. Owners and
        admins merge directly. Off by default.
      </p>
    </SettingSwitch>
  );
}
