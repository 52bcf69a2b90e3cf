"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { createSession, describeError, listSessions, type SessionSummary } from "@/components/api-client";
import { rememberedSession as remembered, sessionStorageKey as storageKey } from "@/components/http/worktree";

/** Remembers the open session; a `?session=` the page was opened with follows it (a reload opens this one). */
function remember(projectId: string, sessionId: string) {
  const url = new URL(window.location.href);
  if (url.searchParams.has("session") && url.searchParams.get("session") !== sessionId) {
    url.searchParams.set("session", sessionId);
    window.history.replaceState(window.history.state, "", url);
  }
  try {
    window.localStorage.setItem(storageKey(projectId), sessionId);
  } catch {
    // Storage may be unavailable; the latest session is picked instead.
  }
}

function forgetRemembered(projectId: string) {
  try {
    window.localStorage.removeItem(storageKey(projectId));
  } catch {
    // Storage may be unavailable: nothing to forget.
  }
}

function newest(sessions: SessionSummary[]): SessionSummary | undefined {
  return [...sessions].sort((a, b) => String(b.updatedAt).localeCompare(String(a.updatedAt)))[0];
}

/**
 * The project's sessions. Picks the session used last in this browser (else the most recently
 * updated one) and creates a session when the project has none (unless `autoCreate` is false: a caller who can
 * only read).
 */
export function useSessions(projectId: string, initialModel: () => string | undefined, autoCreate = true) {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  /** The first list has arrived (or failed): before it, "no session" only means "not loaded yet". */
  const [listed, setListed] = useState(false);
  const initialModelRef = useRef(initialModel);
  initialModelRef.current = initialModel;
  const sessionsRef = useRef(sessions);
  sessionsRef.current = sessions;
  const sessionIdRef = useRef(sessionId);
  sessionIdRef.current = sessionId;
  /** Sessions this tab created: a list fetched before one of them was made must not drop it. */
  const createdHere = useRef(new Set<string>());

  const select = useCallback(
    (id: string) => {
      setSessionId(id);
      remember(projectId, id);
    },
    [projectId],
  );

  const create = useCallback(
    async (model?: string) => {
      setCreating(true);
      try {
        const s = await createSession(projectId, model);
        createdHere.current.add(s.id);
        setSessions((prev) => [s, ...prev.filter((p) => p.id !== s.id)]);
        select(s.id);
        setError(null);
        return s;
      } catch (err) {
        setError(`Could not create a session: ${describeError(err)}`);
        return null;
      } finally {
        setCreating(false);
      }
    },
    [projectId, select],
  );

  const refresh = useCallback(async () => {
    try {
      const list = await listSessions(projectId);
      // A session this tab created while the list was on its way stays (the list predates it).
      setSessions((prev) => {
        const listed = new Set(list.map((s) => s.id));
        return [...prev.filter((p) => !listed.has(p.id) && createdHere.current.has(p.id)), ...list];
      });
    } catch {
      // Keep the current list; the next refresh may succeed.
    }
  }, [projectId]);

  useEffect(() => {
    const ctrl = new AbortController();
    listSessions(projectId, ctrl.signal).then(
      (list) => {
        setSessions(list);
        setListed(true);
        if (list.length === 0) {
          if (autoCreate) void create(initialModelRef.current());
          return;
        }
        const saved = remembered(projectId);
        const pick = list.find((s) => s.id === saved) ?? newest(list);
        if (pick) select(pick.id);
      },
      (err) => {
        if (ctrl.signal.aborted) return;
        setListed(true);
        setError(`Could not load sessions: ${describeError(err)}`);
      },
    );
    return () => ctrl.abort();
  }, [projectId, create, select, autoCreate]);

  /** A session was renamed: show its new title. */
  const replace = useCallback((s: SessionSummary) => {
    setSessions((prev) =>
      prev.map((p) => (p.id === s.id ? { ...p, title: s.title, updatedAt: s.updatedAt } : p)),
    );
  }, []);

  /**
   * A session was deleted: drop it; when it was the current one, select the most recently updated of the
   * others, or none (the empty state: "New session" starts one).
   */
  const forget = useCallback(
    (id: string) => {
      const rest = sessionsRef.current.filter((p) => p.id !== id);
      setSessions(rest);
      if (sessionIdRef.current !== id) return;
      const next = newest(rest);
      if (next) select(next.id);
      else {
        setSessionId(null);
        forgetRemembered(projectId);
      }
    },
    [projectId, select],
  );

  return { sessions, sessionId, select, create, refresh, error, creating, listed, replace, forget };
}
