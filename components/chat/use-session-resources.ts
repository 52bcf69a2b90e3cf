"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import {
  describeError,
  getSessionResources,
  postTrust,
  putRulesPreview,
  type SessionResourcesResponse,
  type TrustChoice,
} from "@/components/api-client";

/**
 * The resources in effect for a session and its trust status; `choose` stores a trust choice and reloads;
 * `stopPreview` ends the session's preview of a team rules proposal and reloads.
 */
export function useSessionResources(projectId: string, sessionId: string | null) {
  const [data, setData] = useState<SessionResourcesResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [choosing, setChoosing] = useState(false);
  const seq = useRef(0);

  const refresh = useCallback(async () => {
    if (!sessionId) return;
    const n = ++seq.current;
    try {
      const next = await getSessionResources(sessionId);
      if (n !== seq.current) return;
      setData(next);
      setError(null);
    } catch (err) {
      if (n === seq.current) setError(describeError(err));
    }
  }, [sessionId]);

  useEffect(() => {
    setData(null);
    setError(null);
    void refresh();
  }, [refresh]);

  const choose = useCallback(
    async (choice: TrustChoice) => {
      setChoosing(true);
      try {
        await postTrust(projectId, { choice, ...(sessionId ? { sessionId } : {}) });
        await refresh();
      } catch (err) {
        setError(`Could not store the trust decision: ${describeError(err)}`);
      } finally {
        setChoosing(false);
      }
    },
    [projectId, sessionId, refresh],
  );

  const stopPreview = useCallback(async () => {
    if (!sessionId) return;
    try {
      await putRulesPreview(sessionId, null);
      await refresh();
    } catch (err) {
      setError(`Could not stop the preview: ${describeError(err)}. Reload the page and try again.`);
    }
  }, [sessionId, refresh]);

  return { data, error, refresh, choose, choosing, stopPreview };
}
