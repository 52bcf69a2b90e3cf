"use client";

import { type RefObject, useCallback, useEffect, useMemo, useRef } from "react";
import { describeError, postPrompt, promptAnswerKind } from "@/components/api-client";
import type { ChatAction, ChatState } from "./reduce-events";
import { rememberRun, rememberSent, tabMemory } from "./run-attach";
import { consumeShellStream } from "./run-stream";
import { parseShellCommand } from "./shell-state";

const isAbortError = (err: unknown) => err instanceof DOMException && err.name === "AbortError";

/**
 * `!command` / `!!command` of one session: each runs on the server's VFS shell with its own event stream,
 * beside a running agent or on its own. `settled()` waits for the open streams: an idle command holds the
 * session's run until its stream closes, so a prompt sent right after it would be refused.
 * `onFilesChanged` is called once per command when its stream ends, with the paths it changed (`[]` when it
 * changed none or only folders): the caller refreshes the file tree, as after the agent's tool writes.
 */
export function useShellCommands(
  sessionId: string | null,
  apply: (action: ChatAction) => ChatState,
  stateRef: RefObject<ChatState>,
  onFilesChanged?: (paths: string[]) => void,
) {
  const filesChanged = useRef(onFilesChanged);
  filesChanged.current = onFilesChanged;
  const seq = useRef(0);
  const open = useRef(new Map<Promise<boolean>, AbortController>());
  /** Commands whose POST has not answered yet (the server's run does not exist yet: an abort would miss it). */
  const posting = useRef(new Set<Promise<unknown>>());

  // biome-ignore lint/correctness/useExhaustiveDependencies: switching sessions ends the previous one's commands.
  useEffect(() => {
    const streams = open.current;
    return () => {
      for (const ctrl of streams.values()) ctrl.abort();
    };
  }, [sessionId]);

  /**
   * Runs the command; resolves false when the server did not take it (the text goes back to the composer).
   * `onStarted` is called as soon as the server answered with the command's stream (it accepted the text).
   */
  const run = useCallback(
    async (text: string, onStarted?: () => void): Promise<boolean> => {
      const parsed = parseShellCommand(text);
      if (!sessionId || !parsed) return false;
      const id = `shell-${++seq.current}`;
      const ctrl = new AbortController();
      apply({ type: "shell_start", id, ...parsed, timestamp: Date.now() });
      const changed: string[] = [];
      let started = false;
      const work = (async () => {
        try {
          // A reload before the answer still knows the command's run as this tab's.
          // (Beside a running agent the command is no run of its own: the agent's run id stays remembered.)
          if (!stateRef.current.running) rememberSent(tabMemory(), sessionId, "bash");
          const post = postPrompt(sessionId, { text: text.trim() }, ctrl.signal);
          const answered = post.then(
            () => undefined,
            () => undefined,
          );
          posting.current.add(answered);
          void answered.then(() => posting.current.delete(answered));
          const res = await post;
          if (!res.body || promptAnswerKind(res) !== "stream") {
            throw new Error("The server did not run the command");
          }
          started = true;
          onStarted?.();
          // This tab's own run: after a reload it is shown as this tab's, not another tab's.
          await consumeShellStream(
            res.body,
            id,
            apply,
            (paths) => changed.push(...paths),
            (runId) => rememberRun(tabMemory(), sessionId, runId),
          );
          return true;
        } catch (err) {
          if (!isAbortError(err)) apply({ type: "local_error", message: describeError(err) });
          // Once the server answered with the command's stream it took the text (the command ran, or runs on:
          // a stream cut by a reload must not hand it back to the composer).
          return started || stateRef.current.shells[id]?.received === true;
        } finally {
          apply({ type: "shell_closed", id });
          // The command ran (or may have): re-read the tree even if it reported no file (e.g. `mkdir`).
          if (started) filesChanged.current?.(changed);
        }
      })();
      open.current.set(work, ctrl);
      try {
        return await work;
      } finally {
        open.current.delete(work);
      }
    },
    [sessionId, apply, stateRef],
  );

  const settled = useCallback(async () => {
    await Promise.allSettled([...open.current.keys()]);
  }, []);

  /** Resolves once every command sent so far has its POST answered (its run exists on the server, or none will). */
  const answered = useCallback(async () => {
    await Promise.all([...posting.current]);
  }, []);

  return useMemo(() => ({ run, settled, answered }), [run, settled, answered]);
}
