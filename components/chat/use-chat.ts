"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { abortSession, describeError, getSession, postPrompt } from "@/components/api-client";
import { toAgentEvent } from "./events";
import {
  type ChatAction,
  type ChatState,
  changedPathsOf,
  initialChatState,
  reduceChat,
} from "./reduce-events";
import { readSseStream } from "./sse";

export interface UseChatOptions {
  /** Paths (as the agent named them) that an event reports changed. */
  onPathsChanged?: (paths: string[]) => void;
  /** Called when a run's stream has closed. */
  onRunEnd?: () => void;
}

export interface ChatApi {
  state: ChatState;
  loading: boolean;
  loadError: string | null;
  aborting: boolean;
  /** Sends a prompt; resolves false when the run could not start (the text was not accepted). */
  send(text: string, model?: string): Promise<boolean>;
  abort(): Promise<void>;
  /** Re-read the session from the server (after a branch move, a fork or a compaction). */
  reload(): void;
}

const isAbortError = (err: unknown) => err instanceof DOMException && err.name === "AbortError";
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One session's conversation: restored with GET /api/sessions/:id, extended by streamed prompts. */
export function useChat(sessionId: string | null, options: UseChatOptions = {}): ChatApi {
  const [state, setState] = useState<ChatState>(initialChatState);
  const stateRef = useRef(state);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [aborting, setAborting] = useState(false);
  const [reloadSeq, setReloadSeq] = useState(0);
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloadSeq` is the trigger of `reload()`.
  useEffect(() => {
    apply({ type: "reset", messages: [] });
    setLoadError(null);
    if (!sessionId) return;
    const ctrl = new AbortController();
    setLoading(true);
    getSession(sessionId, ctrl.signal)
      .then((res) => apply({ type: "reset", messages: res.messages }))
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

  const send = useCallback(
    async (text: string, model?: string): Promise<boolean> => {
      if (!sessionId || stateRef.current.running || !text.trim()) return false;
      const seq = ++runSeq.current;
      const ctrl = new AbortController();
      fetchCtrl.current = ctrl;
      apply({ type: "local_prompt", text, timestamp: Date.now() });
      let started = false;
      let failed = false;
      let compacted = false;
      let finish = () => {};
      runDone.current = new Promise<void>((r) => {
        finish = r;
      });
      try {
        const res = await postPrompt(sessionId, { text, ...(model ? { model } : {}) }, ctrl.signal);
        started = true;
        if (!res.body) throw new Error("The server answered without an event stream");
        await readSseStream(res.body, (sse) => {
          if (sse.event === "compaction_end" || sse.event === "auto_compaction_end") {
            // The server's context changed: show it as stored once the stream ends.
            compacted = true;
            const end = JSON.parse(sse.data || "{}") as { errorMessage?: string; skipped?: string };
            if (end.errorMessage)
              apply({ type: "local_error", message: `Compaction failed: ${end.errorMessage}` });
            else if (end.skipped === "nothing")
              apply({ type: "local_error", message: "Nothing to compact yet." });
            return;
          }
          const event = toAgentEvent(sse.event, sse.data);
          if (!event) return;
          const prev = apply(event);
          const paths = changedPathsOf(prev, event);
          if (paths.length > 0) optionsRef.current.onPathsChanged?.(paths);
        });
      } catch (err) {
        if (!isAbortError(err)) {
          failed = true;
          apply({ type: "local_error", message: describeError(err) });
        }
      } finally {
        apply({ type: "stream_closed" });
        if (fetchCtrl.current === ctrl) fetchCtrl.current = null;
        finish();
      }
      // After an abort, a failure or a compaction the live list may differ from what the server kept.
      if ((failed || compacted || ctrl.signal.aborted) && seq === runSeq.current) {
        getSession(sessionId).then(
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
      optionsRef.current.onRunEnd?.();
      return started;
    },
    [sessionId, apply],
  );

  const abort = useCallback(async () => {
    if (!sessionId) return;
    setAborting(true);
    try {
      await Promise.race([abortSession(sessionId), sleep(5000)]);
    } catch (err) {
      apply({ type: "local_error", message: `Abort failed: ${describeError(err)}` });
    }
    // Let the stream deliver the final (aborted) message, then cut it.
    if (runDone.current) await Promise.race([runDone.current, sleep(1500)]);
    fetchCtrl.current?.abort();
    setAborting(false);
  }, [sessionId, apply]);

  const reload = useCallback(() => setReloadSeq((n) => n + 1), []);
  return { state, loading, loadError, aborting, send, abort, reload };
}
