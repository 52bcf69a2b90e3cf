"use client";

import { type MutableRefObject, useCallback, useEffect, useRef, useState } from "react";
import { getSession, type SessionResponse } from "@/components/api-client";
import type { ChatAction, ChatState } from "./reduce-events";

const POLL_MS = 1000;

/**
 * A run of this session that another tab (or server instance) streams: this tab cannot read that stream, so it
 * follows the run by re-reading the session every second — messages as they are stored, the queue — until the
 * run ends. Meanwhile the composer queues (Enter steers, Alt+Enter follows up) instead of starting a run.
 */
export function useRemoteRun(
  sessionId: string | null,
  apply: (action: ChatAction) => ChatState,
  stateRef: MutableRefObject<ChatState>,
  onEnd: () => void,
): {
  /** True while another tab's run holds the session. */
  active: boolean;
  /** Take the state of a session read (`GET /api/sessions/:id`): starts following when a run is live. */
  observe(res: SessionResponse): void;
  /** Start following (e.g. after a 409 `run_active`). */
  follow(): void;
} {
  const [active, setActive] = useState(false);
  const shown = useRef("");
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  const observe = useCallback(
    (res: SessionResponse) => {
      const idle = !stateRef.current.running;
      const json = JSON.stringify(res.messages);
      if (idle && json !== shown.current) {
        shown.current = json;
        apply({ type: "reset", messages: res.messages });
      }
      if (idle && res.queue) apply({ type: "queue_update", ...res.queue });
      setActive(Boolean(res.run) && idle);
    },
    [apply, stateRef],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new session starts unfollowed.
  useEffect(() => {
    setActive(false);
    shown.current = "";
  }, [sessionId]);

  useEffect(() => {
    if (!sessionId || !active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const res = await getSession(sessionId);
        if (stopped) return;
        observe(res);
        if (!res.run) {
          onEndRef.current();
          return;
        }
      } catch {
        // try again on the next tick
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId, active, observe]);

  return { active, observe, follow: useCallback(() => setActive(true), []) };
}
