"use client";

import { useEffect, useRef, useState } from "react";
import { describeError } from "@/components/api-client";
import { apiJson } from "@/components/http/api-fetch";
import type { SessionViewer } from "@/lib/session/session-version";

/** How often an open tab asks whether its session moved (ms): a change elsewhere shows within about this. */
export const SESSION_WATCH_MS = 500;

/** What {@link useSessionWatch} reports. */
export interface SessionWatch {
  /** Why changes made in other tabs are not shown live (null: they are). */
  error: string | null;
  /** Who has the session open now (this tab's user included), by name. */
  viewers: SessionViewer[];
}

/**
 * Live across tabs and people: while the tab is visible and `busy()` is false (it is not streaming or following a run
 * itself: that one stream shows everything), polls `GET /api/sessions/:id/version` every {@link SESSION_WATCH_MS} ms
 * (which also says who is viewing) and calls `onChange` when the session moved since the last answer — another tab's
 * or a teammate's prompt, restore or queued message, a run started elsewhere — and once after a busy spell (what
 * changed elsewhere meanwhile).
 */
export function useSessionWatch(
  sessionId: string | null,
  busy: () => boolean,
  onChange: () => void,
): SessionWatch {
  const [watch, setWatch] = useState<SessionWatch>({ error: null, viewers: [] });
  const latest = useRef({ busy, onChange });
  latest.current = { busy, onChange };
  useEffect(() => {
    setWatch({ error: null, viewers: [] });
    if (!sessionId) return;
    const ctrl = new AbortController();
    let last: string | null = null;
    /** The tab was busy at a tick: what changed elsewhere meanwhile is read once it is not. */
    let missed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      // Not while the tab streams a run itself: its one event stream shows everything, and it makes no other request.
      if (latest.current.busy()) missed = true;
      else if (document.visibilityState === "visible") {
        try {
          const url = `/api/sessions/${encodeURIComponent(sessionId)}/version`;
          const answer = await apiJson<{ version: string; viewers: SessionViewer[] }>(url, {
            signal: ctrl.signal,
            cache: "no-store",
          });
          if (!latest.current.busy()) {
            if ((last !== null && answer.version !== last) || missed) latest.current.onChange();
            last = answer.version;
            missed = false;
          } else {
            last = null;
            missed = true;
          }
          setWatch((w) =>
            w.error === null && sameViewers(w.viewers, answer.viewers)
              ? w
              : { error: null, viewers: answer.viewers },
          );
        } catch (err) {
          if (ctrl.signal.aborted) return;
          setWatch((w) => ({
            ...w,
            error: `Changes made in other tabs show after a reload: ${describeError(err)}`,
          }));
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
  return watch;
}

const sameViewers = (a: SessionViewer[], b: SessionViewer[]) =>
  a.length === b.length && a.every((v, i) => v.userId === b[i]?.userId && v.name === b[i]?.name);
