"use client";

import { type SetStateAction, useCallback, useEffect, useRef, useState } from "react";
import { browserStorage, loadDraft, saveDraft, storedDraft, withoutSent } from "./draft-store";
import { restoreDraft } from "./queue";

/** A text taken from the composer for sending, until `settle`. */
export interface SentDraft {
  text: string;
  sessionId: string | null;
  /** The server took it (`release`): no longer stored, so a reload does not bring it back. */
  released?: boolean;
}

/**
 * The composer's text for one session, kept in localStorage (draft-store.ts) so it survives a reload: what is
 * stored is the texts on their way to the server (taken, not yet accepted) followed by what the box shows.
 * `take()` empties the box for a send; `release(sent)` drops it from storage as soon as the server took it (the
 * POST answered with its run's stream: a reload must not refill the box with a prompt or `!command` already
 * running or done); `settle(sent, accepted)` forgets the text once the server accepted it, or puts it back
 * before what was typed since (also after `release`, in this tab).
 */
export function useDraft(sessionId: string | null) {
  const [draft, setVisible] = useState("");
  const visible = useRef("");
  const inFlight = useRef<SentDraft[]>([]);
  const session = useRef(sessionId);
  session.current = sessionId;

  const persist = useCallback((id: string | null) => {
    if (!id) return;
    const pending = inFlight.current.filter((s) => s.sessionId === id);
    saveDraft(browserStorage(), id, storedDraft(pending, id === session.current ? visible.current : ""));
  }, []);

  const show = useCallback((text: string) => {
    visible.current = text;
    setVisible(text);
  }, []);

  useEffect(() => {
    show(sessionId ? loadDraft(browserStorage(), sessionId) : "");
  }, [sessionId, show]);

  /** Sets the box's text (a value or an updater of the current text) and stores it. */
  const setDraft = useCallback(
    (next: SetStateAction<string>) => {
      show(typeof next === "function" ? next(visible.current) : next);
      persist(session.current);
    },
    [show, persist],
  );

  /** Takes the box's text for sending: the box empties, the text stays stored until `settle`. */
  const take = useCallback((): SentDraft => {
    const sent = { text: visible.current, sessionId: session.current };
    inFlight.current = [...inFlight.current, sent];
    show("");
    persist(sent.sessionId);
    return sent;
  }, [show, persist]);

  /** The server took `sent` (its POST answered with the run's stream): it is no longer stored. */
  const release = useCallback(
    (sent: SentDraft) => {
      if (!inFlight.current.includes(sent) || sent.released) return;
      sent.released = true;
      if (sent.sessionId === session.current) persist(sent.sessionId);
      else if (sent.sessionId) {
        const storage = browserStorage();
        saveDraft(storage, sent.sessionId, withoutSent(loadDraft(storage, sent.sessionId), sent.text));
      }
    },
    [persist],
  );

  /** The server accepted `sent` (forget it) or not (back into the box, before what was typed since). */
  const settle = useCallback(
    (sent: SentDraft, accepted: boolean) => {
      if (!inFlight.current.includes(sent)) return;
      inFlight.current = inFlight.current.filter((s) => s !== sent);
      if (sent.sessionId !== session.current) {
        // Another session is open now: its stored draft still starts with the text (stored while in flight).
        const storage = browserStorage();
        if (accepted && sent.sessionId && !sent.released)
          saveDraft(storage, sent.sessionId, withoutSent(loadDraft(storage, sent.sessionId), sent.text));
        return;
      }
      if (!accepted) show(restoreDraft([sent.text], visible.current));
      persist(sent.sessionId);
    },
    [show, persist],
  );

  return { draft, setDraft, take, release, settle };
}
