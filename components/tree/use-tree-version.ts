"use client";

import { useEffect, useRef, useState } from "react";
import { describeError } from "@/components/api-client";
import { getTreeVersion } from "./entries-api";

/** How often a visible tab asks whether the project's files changed, ms. */
export const TREE_POLL_MS = 2_500;

/**
 * The change feed of a project's files, polled: `GET /api/projects/:id/tree/version` every `intervalMs` while
 * the tab is visible (paused while hidden; asked at once when it shows again). `onChange` runs when the version
 * differs from the last one seen (not for the first) — whoever made the change: another tab, the agent, a
 * `!command`, the CLI. After two failed polls in a row `error` says so (cleared by the next success).
 */
export function useTreeVersionPoll(
  projectId: string,
  onChange: () => void,
  intervalMs = TREE_POLL_MS,
): { error: string | null } {
  const [error, setError] = useState<string | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    let last: string | null = null;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | null = null;
    let stopped = false;

    const poll = async () => {
      clearTimeout(timer);
      if (stopped || inFlight) return;
      if (document.visibilityState === "visible") {
        inFlight = new AbortController();
        try {
          const version = await getTreeVersion(projectId, inFlight.signal);
          failures = 0;
          setError(null);
          if (last !== null && version !== last) onChangeRef.current();
          last = version;
        } catch (err) {
          if (stopped) return;
          failures++;
          if (failures >= 2)
            setError(
              `Live updates paused: ${describeError(err)}. Retrying every few seconds; ⟳ re-reads the files now.`,
            );
        } finally {
          inFlight = null;
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), intervalMs);
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") void poll();
    };
    void poll();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      inFlight?.abort();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [projectId, intervalMs]);

  return { error };
}
