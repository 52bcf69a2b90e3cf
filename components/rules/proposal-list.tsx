"use client";

import Link from "next/link";
import { formatDateTime } from "@/components/ui/format";
import styles from "./rules.module.css";
import { authorLabel, type ProposalStatus, type ProposalSummary } from "./rules-api";

const STATUS_LABEL: Record<ProposalStatus, string> = {
  open: "Open",
  approved: "Approved",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};

/** A proposal's status as a coloured badge. */
export function StatusBadge({ status }: { status: ProposalStatus | string }) {
  const label = STATUS_LABEL[status as ProposalStatus] ?? status;
  return <span className={`${styles.status} ${styles[`status_${status}`] ?? ""}`}>{label}</span>;
}

/** The team's proposals: open ones first, then decided ones, newest first within each. */
export function ProposalList({
  workspaceId,
  proposals,
}: {
  workspaceId: string;
  proposals: ProposalSummary[];
}) {
  const newest = (a: ProposalSummary, b: ProposalSummary) => b.createdAt.localeCompare(a.createdAt);
  const open = proposals.filter((p) => p.status === "open").sort(newest);
  const decided = proposals.filter((p) => p.status !== "open").sort(newest);
  return (
    <>
      <Group title="Open" workspaceId={workspaceId} items={open} empty="No open proposals." />
      <Group title="Decided" workspaceId={workspaceId} items={decided} empty="None decided yet." />
    </>
  );
}

function Group({
  title,
  workspaceId,
  items,
  empty,
}: {
  title: string;
  workspaceId: string;
  items: ProposalSummary[];
  empty: string;
}) {
  return (
    <section className={styles.proposalGroup} aria-label={`${title} proposals`}>
      <h3>
        {title} <span className="muted">{items.length}</span>
      </h3>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className={styles.proposalList}>
          {items.map((p) => (
            <li key={p.id}>
              <Link
                href={`/teams/${encodeURIComponent(workspaceId)}/rules/proposals/${encodeURIComponent(p.id)}`}
                className={styles.proposalLink}
              >
                <span className={styles.proposalTitle}>{p.title}</span>
                <span className={styles.fileMeta}>
                  <StatusBadge status={p.status} /> {authorLabel(p)} · {formatDateTime(p.createdAt)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
