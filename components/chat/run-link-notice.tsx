"use client";

import { Notice } from "@/components/ui/notice";
import { REATTACH_DELAYS_MS } from "./run-attach";
import { isAgentRun, type LiveRun } from "./run-label";
import type { RunLink } from "./use-run-attach";

/**
 * The connection to a live run's event stream when it is not live: reconnecting (which attempt, in how long), or
 * lost with a Reconnect action (the run may still go on on the server; Abort still stops it). `run` names what
 * runs (a shell command, a compaction: "the run"; else "the agent's run").
 */
export function RunLinkNotice({
  link,
  onReconnect,
  run = null,
}: {
  link: RunLink;
  onReconnect: () => void;
  run?: LiveRun | null;
}) {
  if (link.status === "live") return null;
  const what = isAgentRun(run)
    ? "the agent's run"
    : run?.mode === "bash" || run?.kind === "bash"
      ? "the shell command"
      : "the run";
  if (link.status === "reconnecting")
    return (
      <Notice kind="warning" title={`Connection to ${what} dropped`}>
        {`${link.reason}. Reconnecting (attempt ${link.attempt} of ${REATTACH_DELAYS_MS.length}${link.delayMs > 0 ? ` in ${link.delayMs / 1000} s` : ""})…`}
      </Notice>
    );
  return (
    <Notice
      kind="error"
      title={`Lost the connection to ${what}`}
      actions={
        <button type="button" className="btn btn-small" onClick={onReconnect}>
          Reconnect
        </button>
      }
    >
      {`${link.error}. The run may still be going on on the server: Reconnect shows it from where this page stopped; Abort stops it.`}
    </Notice>
  );
}
