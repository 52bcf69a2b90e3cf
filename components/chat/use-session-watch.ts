"use client";

import { useEffect, useRef, useState } from "react";
import { describeError } from "@/components/api-client";
import { apiJson } from "@/components/http/api-fetch";

/** How often an open tab asks whether its session moved (ms): a change elsewhere shows within about this. */
export const SESSION_WATCH_MS = 500;

/**
 * Live across tabs and people: while the tab is visible and `busy()` is false (it is not streaming or following a
 * run itself), polls `GET /api/sessions/:id/version` every {@link SESSION_WATCH_MS} ms and calls `onChange` when the
 * session moved since the last answer (another tab's or a teammate's prompt, restore, queued message, a run started
 * elsewhere). @returns the last poll's failure, for the chat to show ("Not live"), or null.
 */
export function useSessionWatch(
  sessionId: string | null,
  busy: () => boolean,
  onChange: () => void,
): string | null {
  const [error, setError] = useState<string | null>(null);
  const latest = useRef({ busy, onChange });
  latest.current = { busy, onChange };
  useEffect(() => {
    setError(null);
    if (!sessionId) return;
    const ctrl = new AbortController();
    let last: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (document.visibilityState === "visible" && !latest.current.busy()) {
        try {
          const url = `/api/sessions/${encodeURIComponent(sessionId)}/version`;
          const { version } = await apiJson<{ version: string }>(url, {
            signal: ctrl.signal,
            cache: "no-store",
          });
          if (last !== null && version !== last && !latest.current.busy()) latest.current.onChange();
          last = version;
          setError(null);
        } catch (err) {
          if (ctrl.signal.aborted) return;
          setError(`Changes made in other tabs show after a reload: ${describeError(err)}`);
        }
      }
      if (!ctrl.signal.aborted) timer = setTimeout(tick, SESSION_WATCH_MS);
    };
    void tick();
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
  }, [sessionId]);
  return error;
}
