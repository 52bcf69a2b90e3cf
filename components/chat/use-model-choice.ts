"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { type ConfigResponse, describeError, getConfig, type SessionSummary } from "@/components/api-client";
import { resolveModelChoice } from "./model-resolution";
import { putSessionModel } from "./session-tree-client";

const MODEL_KEY = "strata.model";

function rememberedModel(): string | null {
  try {
    return window.localStorage.getItem(MODEL_KEY);
  } catch {
    return null;
  }
}

function rememberModel(id: string) {
  try {
    window.localStorage.setItem(MODEL_KEY, id);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}

/**
 * The server's model list and the model the next prompt uses (`resolveModelChoice`): an opened session's own
 * model (its last `model_change` or assistant message) wins; a session without one gets the model chosen last in
 * this browser, else the server's default. Choosing a model switches the session as pi's `setModel` does: a
 * `model_change` entry stored at once (`PUT /api/sessions/:id/model`; while a run holds the session, when it
 * ends), and remembered in this browser as the default for new sessions. A refreshed session list never
 * overrides the choice. `saveError` says when a switch could not be stored (the next prompt still carries it).
 */
export function useModelChoice(session: SessionSummary | undefined, running: boolean, projectId?: string) {
  const [config, setConfig] = useState<ConfigResponse | null>(null);
  const [configError, setConfigError] = useState<string | null>(null);
  const [model, setModel] = useState("");
  const [saveError, setSaveError] = useState<string | null>(null);
  /** A choice made while a run held the session: stored when the run ends. */
  const [pending, setPending] = useState<{ sessionId: string; model: string } | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    getConfig(ctrl.signal, projectId).then(
      (c) => {
        setConfig(c);
        setModel((m) =>
          resolveModelChoice({
            available: c.models.map((x) => x.id),
            sessionModel: m || null,
            remembered: rememberedModel(),
            defaultModel: c.defaultModel,
          }),
        );
      },
      (err) => {
        if (!ctrl.signal.aborted) setConfigError(describeError(err));
      },
    );
    return () => ctrl.abort();
  }, [projectId]);

  // Follow a session's model once, when it is opened (not when a refresh reports it again).
  const followed = useRef<string | null>(null);
  const sessionId = session?.id ?? null;
  const sessionModel = session?.model ?? null;
  useEffect(() => {
    if (!sessionId || !config || followed.current === sessionId) return;
    followed.current = sessionId;
    setSaveError(null);
    setModel(
      resolveModelChoice({
        available: config.models.map((m) => m.id),
        sessionModel,
        remembered: rememberedModel(),
        defaultModel: config.defaultModel,
      }),
    );
  }, [sessionId, sessionModel, config]);

  // The switch being stored: a prompt waits for it, so the two never race for the session.
  const saving = useRef<Promise<void>>(Promise.resolve());
  const store = useCallback((id: string, chosen: string) => {
    const previous = saving.current;
    saving.current = (async () => {
      await previous;
      try {
        await putSessionModel(id, chosen);
        setSaveError(null);
      } catch (err) {
        setSaveError(
          `The model switch was not saved in the session: ${describeError(err)}. The next prompt still uses ${chosen}.`,
        );
      }
    })();
  }, []);
  /** Resolves once the last switch has been stored (or failed). */
  const saved = useCallback(() => saving.current, []);

  useEffect(() => {
    if (running || !pending) return;
    setPending(null);
    store(pending.sessionId, pending.model);
  }, [running, pending, store]);

  const choose = (id: string) => {
    setModel(id);
    rememberModel(id);
    if (!sessionId) return;
    if (running) setPending({ sessionId, model: id });
    else store(sessionId, id);
  };
  return { config, configError, model, choose, saveError, saved };
}
