"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import {
  ApiError,
  abortSession,
  describeError,
  getSession,
  postPrompt,
  postRetry,
  promptAnswerKind,
  type QueuedPrompt,
  type StreamingBehavior,
} from "@/components/api-client";
import type { ImageContent } from "@/lib/llm/types";
import {
  type ChatAction,
  type ChatState,
  changedPathsOf,
  initialChatState,
  reduceChat,
} from "./reduce-events";
import { RunCursor, rememberRun, rememberSent, tabMemory } from "./run-attach";
import type { LiveRun } from "./run-label";
import { applyWhile, createRunEventHandler } from "./run-stream";
import { shellOpen } from "./shell-state";
import { type RunLink, type RunOrigin, useRunAttach } from "./use-run-attach";
import { type SessionWatch, useSessionWatch } from "./use-session-watch";
import { useShellCommands } from "./use-shell-commands";

export interface UseChatOptions {
  /**
   * While true, changes made elsewhere are not re-read (e.g. the session tree is open and the user moves in it: the
   * tree shows its own state); the tab catches up once it is false again.
   */
  watchPaused?: () => boolean;
  /** Paths (as the agent named them) that an event reports changed. */
  onPathsChanged?: (paths: string[]) => void;
  /** Called when a run's stream has closed. */
  onRunEnd?: () => void;
  /** Queued texts the server hands back undelivered (`queue_returned`), oldest first. */
  onQueueReturned?: (texts: string[]) => void;
}

export interface ChatApi {
  state: ChatState;
  /** Who wrote each user message: its `timestamp` (as a string) → the author's name (from the last read). */
  authors: Record<string, string>;
  loading: boolean;
  loadError: string | null;
  aborting: boolean;
  /**
   * Sends a prompt; resolves false when the server did not accept the text (a refused or failed request, a
   * stream that failed or dropped before the prompt was stored): the caller gives it back to the composer.
   * `onAccepted` runs as soon as the server has stored the prompt (its user message came back); `onStarted` as
   * soon as the POST answered with the run's stream (the server took the text: a reload must not bring it back).
   */
  send(
    text: string,
    model?: string,
    onAccepted?: () => void,
    images?: ImageContent[],
    onStarted?: () => void,
  ): Promise<boolean>;
  /** While a run is going: queues a steering or follow-up message; false when it was not accepted. */
  queue(
    text: string,
    kind: StreamingBehavior,
    model?: string,
    onAccepted?: () => void,
    onStarted?: () => void,
  ): Promise<boolean>;
  /**
   * Runs `!command` / `!!command` on the project's shell; false when it was not accepted. `onStarted`: the
   * server answered with the command's stream.
   */
  shell(text: string, onStarted?: () => void): Promise<boolean>;
  /** A `!command` of this tab is running (its stream is open). */
  shellRunning: boolean;
  /**
   * The live run this tab knows of (its kind and mode: followed, streamed by this tab, or this tab's
   * `!command`); null when none.
   */
  liveRun: LiveRun | null;
  /**
   * Aborts the run. The texts of queued messages it never delivered (queue order) go to `onUndelivered` as
   * soon as the server answers, and the promise resolves them once the run's stream has ended.
   */
  abort(onUndelivered?: (texts: string[]) => void): Promise<string[]>;
  /** Re-read the session from the server (after a branch move, a fork or a compaction). */
  reload(): void;
  /** Re-runs the failed last turn (POST /api/sessions/:id/retry, pi's `agent.continue()`); false when it could not start. */
  retry(model?: string): Promise<boolean>;
  /**
   * True while this tab follows a live run over its attach stream (another tab's, or its own from before a
   * reload): prompts are queued into it.
   */
  remoteRunning: boolean;
  /** Where the followed run was started (another tab, this tab before a reload, …); null when none is followed. */
  runOrigin: RunOrigin | null;
  /** The connection to the live run's event stream (reconnecting after a drop, or lost). */
  link: RunLink;
  /** After a lost stream: attach to the run again from the last event seen. */
  reconnect(): void;
  /** Changes made elsewhere: why they are not shown live (null: they are), and who has the session open. */
  watch: SessionWatch;
}

const isAbortError = (err: unknown) => err instanceof DOMException && err.name === "AbortError";
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** How long an abort waits for the run's `run_end` before it cuts the stream and re-reads the session (ms). */
const ABORT_WAIT_MS = 5000;

/** One session's conversation: restored with GET /api/sessions/:id, extended by streamed prompts. */
export function useChat(sessionId: string | null, options: UseChatOptions = {}): ChatApi {
  const [state, setState] = useState<ChatState>(initialChatState);
  const stateRef = useRef(state);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [aborting, setAborting] = useState(false);
  const [reloadSeq, setReloadSeq] = useState(0);
  /** The run this tab's own POST stream announced (`run_start`), until that stream closes. */
  const [ownRun, setOwnRun] = useState<LiveRun | null>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const fetchCtrl = useRef<AbortController | null>(null);
  const runDone = useRef<Promise<void> | null>(null);
  const runSeq = useRef(0);

  const apply = useCallback((action: ChatAction) => {
    const prev = stateRef.current;
    const next = reduceChat(prev, action);
    stateRef.current = next;
    setState(next);
    return prev;
  }, []);
  const shells = useShellCommands(sessionId, apply, stateRef, (paths) =>
    optionsRef.current.onPathsChanged?.(paths),
  );
  /** An event handler for one run stream: paths changed go to the tree, returned texts to the composer. */
  const makeHandler = useCallback(
    (onEvent?: (prev: ChatState, event: ChatAction) => void, current?: () => boolean) =>
      createRunEventHandler(
        current ? applyWhile(apply, current, () => stateRef.current) : apply,
        (prev, event) => {
          onEvent?.(prev, event);
          const paths = changedPathsOf(prev, event);
          if (paths.length > 0) optionsRef.current.onPathsChanged?.(paths);
        },
        (texts) => {
          if (texts.length > 0) optionsRef.current.onQueueReturned?.(texts);
        },
      ),
    [apply],
  );
  /** Who wrote each user message (timestamp → name), from the last read of the session. */
  const [authors, setAuthors] = useState<Record<string, string>>({});
  const attach = useRunAttach(
    sessionId,
    apply,
    stateRef,
    makeHandler,
    () => optionsRef.current.onRunEnd?.(),
    (res) => {
      const next = res.authors ?? {};
      setAuthors((prev) => (JSON.stringify(prev) === JSON.stringify(next) ? prev : next));
    },
  );
  const remoteRef = useRef(attach);
  remoteRef.current = attach;
  // Live across tabs and people: the session moved elsewhere (another tab, a teammate, a run started there).
  const watch = useSessionWatch(
    sessionId,
    () =>
      stateRef.current.running ||
      shellOpen(stateRef.current) ||
      remoteRef.current.attached ||
      (optionsRef.current.watchPaused?.() ?? false),
    () => {
      if (sessionId) void remoteRef.current.reread(sessionId, true);
    },
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloadSeq` is the trigger of `reload()`.
  useEffect(() => {
    apply({ type: "reset", messages: [] });
    setLoadError(null);
    if (!sessionId) return;
    const ctrl = new AbortController();
    setLoading(true);
    getSession(sessionId, ctrl.signal)
      .then((res) => {
        apply({ type: "reset", messages: res.messages });
        remoteRef.current.observe(res);
      })
      .catch((err) => {
        if (!ctrl.signal.aborted) setLoadError(describeError(err));
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setLoading(false);
      });
    return () => {
      ctrl.abort();
      fetchCtrl.current?.abort();
    };
  }, [sessionId, apply, reloadSeq]);

  /**
   * Shows `text` as the user's prompt and streams the run that `open()` starts. Resolves whether the server
   * accepted the prompt: its user message came back, or the stream ended without an error (a command such as
   * `/compact` that stores no message). A prompt not accepted leaves the conversation (the text goes back).
   */
  const streamRun = useCallback(
    async (
      id: string,
      text: string | null,
      ctrl: AbortController,
      open: () => Promise<Response>,
      onAccepted?: () => void,
      onStarted?: () => void,
    ) => {
      const seq = ++runSeq.current;
      // This stream's events and its end apply only until the user starts the next run.
      const isCurrent = () => seq === runSeq.current;
      fetchCtrl.current = ctrl;
      // `null`: the Retry button re-runs the failed last turn (no new user message).
      apply(text === null ? { type: "local_retry" } : { type: "local_prompt", text, timestamp: Date.now() });
      let started = false;
      let failed = false;
      let accepted = false;
      let errored = false;
      const accept = () => {
        if (accepted) return;
        accepted = true;
        onAccepted?.();
      };
      let compacted = false;
      let lost = false;
      let startedRun: LiveRun = { kind: "prompt", mode: text === null ? "retry" : "prompt" };
      let finish = () => {};
      runDone.current = new Promise<void>((r) => {
        finish = r;
      });
      try {
        rememberSent(tabMemory(), id, text === null ? "retry" : "prompt");
        const res = await open();
        started = true;
        if (!res.body) throw new Error("The server answered without an event stream");
        onStarted?.();
        const handler = makeHandler((_prev, event) => {
          if (event.type === "run_start") {
            rememberRun(tabMemory(), id, event.runId);
            startedRun = { kind: event.kind, mode: event.mode };
            setOwnRun(startedRun);
          } else if (event.type === "message_end" && event.message.role === "user") accept();
          else if (event.type === "error") errored = true;
        }, isCurrent);
        // A stream that drops before `run_end` is re-attached from its last seq (the run goes on on the server).
        const cursor = new RunCursor();
        const result = await remoteRef.current.stream(cursor, handler.handle, ctrl.signal, res.body);
        compacted = handler.compacted;
        if (result.kind === "lost") {
          // The view stays on the run (Reconnect goes on from the last seq); the text is back if not stored.
          lost = true;
          remoteRef.current.adopt(cursor, startedRun);
        } else if (result.kind === "gone") failed = true;
        // An error before the prompt was stored (no model, an unknown one): the text was not taken.
        else if (errored && !accepted) failed = true;
        else accept();
      } catch (err) {
        if (err instanceof ApiError && err.code === "run_active" && !started) {
          // Another tab's run holds the session: follow it; the text goes back to the composer to queue.
          apply({ type: "local_prompt_refused" });
          getSession(id).then(
            (session) => {
              if (stateRef.current.running) return;
              // The messages up to the run's start; its events replay on top of them.
              apply({ type: "reset", messages: session.messages });
              remoteRef.current.observe(session);
            },
            (e) => apply({ type: "local_error", message: describeError(e) }),
          );
        } else if (!isAbortError(err)) {
          failed = true;
          apply({ type: "local_error", message: describeError(err) });
        }
      } finally {
        // Not stored: the optimistic user message goes (its text returns to the composer).
        if (!accepted && isCurrent()) apply({ type: "local_prompt_refused" });
        if (!lost && isCurrent()) apply({ type: "stream_closed" });
        if (seq === runSeq.current) setOwnRun(null);
        if (fetchCtrl.current === ctrl) fetchCtrl.current = null;
        finish();
      }
      // After an abort, a failure or a compaction the live list may differ from what the server kept.
      if ((failed || compacted || ctrl.signal.aborted) && seq === runSeq.current) {
        getSession(id).then(
          (res) => {
            if (seq !== runSeq.current || stateRef.current.running) return;
            const errors = stateRef.current.errors;
            apply({ type: "reset", messages: res.messages });
            for (const message of errors) apply({ type: "local_error", message });
          },
          () => {
            // Keep the live list.
          },
        );
      }
      if (!lost) optionsRef.current.onRunEnd?.();
      return accepted;
    },
    [apply, makeHandler],
  );

  const send = useCallback(
    async (
      text: string,
      model?: string,
      onAccepted?: () => void,
      images?: ImageContent[],
      onStarted?: () => void,
    ): Promise<boolean> => {
      if (!sessionId || stateRef.current.running || !text.trim()) return false;
      // An idle `!command` holds the run until its stream closes: start the prompt after it.
      await shells.settled();
      const ctrl = new AbortController();
      return streamRun(
        sessionId,
        text,
        ctrl,
        () =>
          postPrompt(
            sessionId,
            { text, ...(model ? { model } : {}), ...(images?.length ? { images } : {}) },
            ctrl.signal,
          ),
        onAccepted,
        onStarted,
      );
    },
    [sessionId, streamRun, shells],
  );

  const queue = useCallback(
    async (
      text: string,
      kind: StreamingBehavior,
      model?: string,
      onAccepted?: () => void,
      onStarted?: () => void,
    ): Promise<boolean> => {
      if (!sessionId || !text.trim()) return false;
      if (!stateRef.current.running && !remoteRef.current.attached)
        return send(text, model, onAccepted, undefined, onStarted);
      const ctrl = new AbortController();
      const sentAt = stateRef.current.queue.updates;
      let res: Response;
      try {
        const input = { text, streamingBehavior: kind, ...(model ? { model } : {}) };
        res = await postPrompt(sessionId, input, ctrl.signal);
      } catch (err) {
        if (!isAbortError(err)) apply({ type: "local_error", message: describeError(err) });
        return false;
      }
      const answer = promptAnswerKind(res);
      if (answer !== "stream") onAccepted?.();
      if (answer === "handled") return true;
      if (answer === "queued") {
        const body = (await res.json().catch(() => null)) as QueuedPrompt | null;
        const queued = body?.queued;
        const message = {
          id: typeof queued?.id === "string" ? queued.id : `local-${Date.now()}`,
          kind: queued?.kind === "steer" || queued?.kind === "followUp" ? queued.kind : kind,
          text: typeof queued?.text === "string" ? queued.text : text,
        };
        apply({ type: "local_queued", message, sentAt });
        return true;
      }
      // The run ended meanwhile, so this prompt started a new one: show it once the old stream is read.
      if (runDone.current) await runDone.current;
      return streamRun(sessionId, text, ctrl, async () => res, onAccepted, onStarted);
    },
    [sessionId, send, streamRun, apply],
  );

  const abort = useCallback(
    async (onUndelivered?: (texts: string[]) => void): Promise<string[]> => {
      if (!sessionId) return [];
      setAborting(true);
      let undelivered: string[] = [];
      try {
        // A `!command` just sent has no run on the server until its POST answers: abort it after that.
        await Promise.race([shells.answered(), sleep(5000)]);
        const answer = await Promise.race([abortSession(sessionId), sleep(5000).then(() => null)]);
        if (answer) undelivered = answer.undelivered;
      } catch (err) {
        apply({ type: "local_error", message: `Abort failed: ${describeError(err)}` });
      }
      apply({ type: "queue_cleared" });
      if (undelivered.length > 0) onUndelivered?.(undelivered);
      // A lost stream: attach again, the run's end comes with the replay.
      if (remoteRef.current.isLost()) remoteRef.current.reconnect();
      // Let the stream deliver the final (aborted) message and `run_end`, then cut it.
      const ending = Promise.all([runDone.current, remoteRef.current.done(), shells.settled()]);
      await Promise.race([ending, sleep(ABORT_WAIT_MS)]);
      fetchCtrl.current?.abort();
      remoteRef.current.cut();
      setAborting(false);
      return undelivered;
    },
    [sessionId, apply, shells],
  );

  const retry = useCallback(
    async (model?: string): Promise<boolean> => {
      if (!sessionId || stateRef.current.running) return false;
      await shells.settled();
      const ctrl = new AbortController();
      return streamRun(sessionId, null, ctrl, () =>
        postRetry(sessionId, model ? { model } : {}, ctrl.signal),
      );
    },
    [sessionId, streamRun, shells],
  );

  const reload = useCallback(() => setReloadSeq((n) => n + 1), []);
  const shellRunning = shellOpen(state);
  return {
    state,
    authors,
    loading,
    loadError,
    aborting,
    send,
    queue,
    shell: shells.run,
    shellRunning,
    liveRun:
      attach.run ??
      ownRun ??
      (state.running
        ? { kind: "prompt", mode: "prompt" }
        : shellRunning
          ? { kind: "bash", mode: "bash" }
          : null),
    abort,
    reload,
    retry,
    remoteRunning: attach.attached,
    runOrigin: attach.origin,
    link: attach.link,
    reconnect: attach.reconnect,
    watch,
  };
}
