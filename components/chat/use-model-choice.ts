"use client";

import { useEffect, useRef, useState } from "react";
import { type ConfigResponse, describeError, getConfig, type SessionSummary } from "@/components/api-client";

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
 * The server's model list and the model the next prompt uses: the session's model when a session is
 * opened, else the one chosen last in this browser, else the server's default. The choice can change at
 * any time, mid-session too (the next prompt carries it); a refreshed session list never overrides it.
 */
export function useModelChoice(session: SessionSummary | undefined) {
  const [config, setConfig] = useState<ConfigResponse | null>(null);
  const [configError, setConfigError] = useState<string | null>(null);
  const [model, setModel] = useState("");

  useEffect(() => {
    const ctrl = new AbortController();
    getConfig(ctrl.signal).then(
      (c) => {
        setConfig(c);
        const stored = rememberedModel();
        const known = (id: string | null) => (id && c.models.some((m) => m.id === id) ? id : null);
        setModel((m) => known(m) ?? known(stored) ?? c.defaultModel ?? c.models[0]?.id ?? "");
      },
      (err) => {
        if (!ctrl.signal.aborted) setConfigError(describeError(err));
      },
    );
    return () => ctrl.abort();
  }, []);

  // Follow a session's model once, when it is opened (not when a refresh reports it again).
  const followed = useRef<string | null>(null);
  const sessionId = session?.id ?? null;
  const sessionModel = session?.model ?? null;
  useEffect(() => {
    if (!sessionId || !config || followed.current === sessionId) return;
    followed.current = sessionId;
    if (sessionModel && config.models.some((m) => m.id === sessionModel)) setModel(sessionModel);
  }, [sessionId, sessionModel, config]);

  const choose = (id: string) => {
    setModel(id);
    rememberModel(id);
  };
  return { config, configError, model, choose };
}
