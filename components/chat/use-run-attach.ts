"use client";

import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { describeError, getSession, type SessionResponse } from "@/components/api-client";
import type { ChatAction, ChatState } from "./reduce-events";
import {
  type FollowResult,
  followRun,
  openRunEvents,
  RunCursor,
  seqOf,
  startedHere,
  tabMemory,
} from "./run-attach";
import type { LiveRun } from "./run-label";
import type { RunEventHandler } from "./run-stream";
import { shellOpen } from "./shell-state";
import type { SseEvent } from "./sse";

/** The connection to the run's event stream, as the chat shows it. */
export type RunLink =
  | { status: "live" }
  /** The stream dropped: re-attach attempt `attempt` starts after `delayMs`. */
  | { status: "reconnecting"; attempt: number; delayMs: number; reason: string }
  /** Every re-attach failed: the run may still go on on the server; `reconnect()` tries again. */
  | { status: "lost"; error: string };

const LIVE: RunLink = { status: "live" };

/**
 * Where a followed run was started: another tab (`elsewhere`), this tab before a reload (`reload`), or this tab
 * whose own stream was lost and is re-attached (`resumed`).
 */
export type RunOrigin = "elsewhere" | "reload" | "resumed";
const isAbortError = (err: unknown) => err instanceof DOMException && err.name === "AbortError";

/**
 * The attach streams of one session's runs: a run this tab did not start (another tab's, or its own from before
 * a reload) is followed with one long `GET …/runs/:runId/events` from seq 0 on top of the messages the session
 * read returned (the path to the run's start), and a dropped stream (also the starting tab's POST answer) is
 * re-attached from its last seq. After a followed run's `run_end` the session is re-read (entries are the truth).
 * `makeHandler` builds the event handler for one stream (agent events, compaction outcomes, returned texts).
 */
export function useRunAttach(
  sessionId: string | null,
  apply: (action: ChatAction) => ChatState,
  stateRef: RefObject<ChatState>,
  makeHandler: () => RunEventHandler,
  onEnd: () => void,
  /** Each read of the session (its first load and every re-read), e.g. for who wrote its messages. */
  onRead?: (res: SessionResponse) => void,
) {
  /** The run followed, and where it was started. */
  const [following, setFollowing] = useState<{ runId: string; origin: RunOrigin; run: LiveRun } | null>(null);
  const [link, setLink] = useState<RunLink>(LIVE);
  const followCtrl = useRef<AbortController | null>(null);
  const followDone = useRef<Promise<void> | null>(null);
  /** Where a lost stream stopped: `reconnect()` goes on from there. */
  const lost = useRef<{ cursor: RunCursor; replayUntil: number; origin: RunOrigin; run: LiveRun } | null>(
    null,
  );
  const props = useRef({ sessionId, makeHandler, onEnd, onRead });
  props.current = { sessionId, makeHandler, onEnd, onRead };

  // biome-ignore lint/correctness/useExhaustiveDependencies: switching sessions detaches from the previous one's run.
  useEffect(() => {
    setFollowing(null);
    setLink(LIVE);
    lost.current = null;
    return () => followCtrl.current?.abort();
  }, [sessionId]);

  /** Follows `cursor`'s stream with `first` (already open) or by attaching; the link state follows it. */
  const stream = useCallback(
    async (
      cursor: RunCursor,
      onEvent: (sse: SseEvent) => void,
      signal: AbortSignal,
      first?: ReadableStream<Uint8Array>,
    ): Promise<FollowResult> => {
      const id = props.current.sessionId;
      const result = await followRun({
        cursor,
        first,
        signal,
        onEvent,
        open: (runId, after, s) => {
          if (!id) throw new DOMException("No session", "AbortError");
          return openRunEvents(id, runId, after, s);
        },
        onReconnecting: (attempt, delayMs, reason) =>
          setLink({ status: "reconnecting", attempt, delayMs, reason }),
        onReconnected: () => setLink(LIVE),
      });
      setLink(result.kind === "lost" ? { status: "lost", error: result.error } : LIVE);
      return result;
    },
    [],
  );

  /**
   * Re-reads the session after a followed run, or after a change made elsewhere: its messages, its queue, and a run
   * live again (followed). With `onlyIfChanged`, messages equal to those shown are left as they are (no re-render of
   * what this tab already shows, e.g. after its own restore).
   */
  const reread = useCallback(
    async (id: string, onlyIfChanged = false, attempt = 0): Promise<void> => {
      try {
        const shown = stateRef.current.messages;
        const res = await getSession(id);
        // Not over a run or a `!command` this tab shows as it happens (a reset would drop its card).
        if (props.current.sessionId !== id || stateRef.current.running || shellOpen(stateRef.current)) return;
        // The messages were replaced while this read was on its way (a reload after this tab's own move or undo):
        // its answer may be older than what is shown. Read again rather than show a stale state.
        if (stateRef.current.messages !== shown && attempt < 3) return reread(id, onlyIfChanged, attempt + 1);
        const same =
          onlyIfChanged && JSON.stringify(res.messages) === JSON.stringify(stateRef.current.messages);
        if (!same) {
          const errors = stateRef.current.errors;
          apply({ type: "reset", messages: res.messages });
          for (const message of errors) apply({ type: "local_error", message });
        }
        observeRef.current(res);
      } catch (err) {
        apply({ type: "local_error", message: `Could not re-read the session: ${describeError(err)}` });
      }
    },
    [apply, stateRef],
  );

  /**
   * Follows run `cursor.runId` from `cursor.seq`; texts handed back in events up to `replayUntil` are history.
   * `origin`: where the run was started; `run`: its kind and mode (the indicator's label).
   */
  const follow = useCallback(
    (cursor: RunCursor, replayUntil: number, origin: RunOrigin, run: LiveRun) => {
      const id = props.current.sessionId;
      if (!id || !cursor.runId) return;
      followCtrl.current?.abort();
      const ctrl = new AbortController();
      followCtrl.current = ctrl;
      lost.current = null;
      setFollowing({ runId: cursor.runId, origin, run });
      const handler = props.current.makeHandler();
      const onEvent = (sse: SseEvent) => {
        // A reload replays the run: texts it handed back before were given back then.
        if (sse.event === "queue_returned" && (seqOf(sse.id) ?? Number.POSITIVE_INFINITY) <= replayUntil)
          return;
        handler.handle(sse);
      };
      followDone.current = (async () => {
        let result: FollowResult;
        try {
          result = await stream(cursor, onEvent, ctrl.signal);
        } catch (err) {
          if (isAbortError(err) || ctrl.signal.aborted) return;
          result = { kind: "lost", error: describeError(err) };
        }
        if (followCtrl.current === ctrl) followCtrl.current = null;
        if (result.kind === "lost") {
          lost.current = { cursor, replayUntil, origin, run };
          return;
        }
        apply({ type: "stream_closed" });
        setFollowing(null);
        await reread(id);
        props.current.onEnd();
      })();
    },
    [apply, stream, reread],
  );

  const observe = useCallback(
    (res: SessionResponse) => {
      props.current.onRead?.(res);
      if (res.queue) apply({ type: "queue_update", ...res.queue });
      const run = res.run;
      if (!run?.id || followCtrl.current) return;
      const id = props.current.sessionId;
      const here = id !== null && startedHere(tabMemory(), id, run.id, run.mode ?? null);
      follow(new RunCursor(run.id), run.lastSeq ?? 0, here ? "reload" : "elsewhere", {
        kind: run.kind,
        mode: run.mode ?? null,
      });
    },
    [apply, follow],
  );
  const observeRef = useRef(observe);
  observeRef.current = observe;

  /** The starting tab's stream was lost: carry on as its follower from where it stopped. */
  const adopt = useCallback((cursor: RunCursor, run: LiveRun) => {
    lost.current = { cursor, replayUntil: 0, origin: "resumed", run };
  }, []);

  /** Tries a lost stream again from its last seq. */
  const reconnect = useCallback(() => {
    const at = lost.current;
    if (!at) return;
    setLink({ status: "reconnecting", attempt: 1, delayMs: 0, reason: "Reconnecting" });
    follow(at.cursor, at.replayUntil, at.origin, at.run);
  }, [follow]);

  /** Stops following (after an abort that ended no stream in time) and re-reads the session. */
  const cut = useCallback(() => {
    const id = props.current.sessionId;
    const ctrl = followCtrl.current;
    if (!id || (!ctrl && !lost.current)) return;
    ctrl?.abort();
    followCtrl.current = null;
    lost.current = null;
    setFollowing(null);
    setLink(LIVE);
    apply({ type: "stream_closed" });
    void reread(id).then(() => props.current.onEnd());
  }, [apply, reread]);

  return useMemo(
    () => ({
      /** True while this tab follows a run over an attach stream (not the POST answer it is reading). */
      attached: following !== null,
      /** Where the followed run was started (null: none followed). */
      origin: following?.origin ?? null,
      /** The followed run's kind and mode (null: none followed). */
      run: following?.run ?? null,
      link,
      stream,
      observe,
      adopt,
      reconnect,
      cut,
      /** Re-reads session `id` (its messages, queue, and a live run, followed): after a change made elsewhere. */
      reread,
      /** Whether a lost stream waits for `reconnect()`. */
      isLost: () => lost.current !== null,
      /** Settles when the followed run's stream has ended (at once when none is followed). */
      done: () => followDone.current ?? Promise.resolve(),
    }),
    [following, link, stream, observe, adopt, reconnect, cut, reread],
  );
}
