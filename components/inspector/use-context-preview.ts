"use client";

import { useCallback, useEffect, useState } from "react";
import { type ConfigResponse, describeError, getConfig } from "@/components/api-client";
import { resolveModelChoice } from "@/components/chat/model-resolution";
import { type InspectorPreview, type PreviewRequest, postPreview } from "./inspector-api";

/** State of {@link useContextPreview}. */
export interface ContextPreviewState {
  /** The last preview answered (kept while a newer one loads). */
  data: InspectorPreview | null;
  /** Why the last request failed (the server's message), or null. */
  error: string | null;
  loading: boolean;
  /** Ask again with the same input (e.g. after the session grew). */
  refresh: () => void;
}

/**
 * The preview of `sessionId`'s next request for `request` (`POST /api/sessions/:id/preview`), fetched when the
 * session, the model, the text or `refreshKey` change, and on {@link ContextPreviewState.refresh}. A newer
 * request aborts an older one; nothing is fetched while `sessionId` or `request` is null.
 */
export function useContextPreview(
  sessionId: string | null,
  request: PreviewRequest | null,
  refreshKey: string | number = 0,
): ContextPreviewState {
  const [data, setData] = useState<InspectorPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [nonce, setNonce] = useState(0);
  const key = request ? JSON.stringify(request) : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey and nonce are the re-fetch triggers.
  useEffect(() => {
    if (!sessionId || key === null) return;
    const ctrl = new AbortController();
    setLoading(true);
    postPreview(sessionId, JSON.parse(key) as PreviewRequest, ctrl.signal).then(
      (preview) => {
        setData(preview);
        setError(null);
        setLoading(false);
      },
      (err) => {
        if (ctrl.signal.aborted) return;
        setError(describeError(err));
        setLoading(false);
      },
    );
    return () => ctrl.abort();
  }, [sessionId, key, refreshKey, nonce]);

  useEffect(() => {
    if (sessionId === null) {
      setData(null);
      setError(null);
    }
  }, [sessionId]);

  const refresh = useCallback(() => setNonce((n) => n + 1), []);
  return { data, error, loading, refresh };
}

/**
 * The models the inspector offers (the project's workspace's, `GET /api/config?project=`) and its choice: the
 * session's own model first (`provider/id`), else this browser's last choice, else the server's default — as the
 * chat picks (model-resolution.ts). Choosing here previews only: nothing is stored in the session.
 */
export function useInspectorModels(projectId: string, sessionModel: string | null) {
  const [config, setConfig] = useState<ConfigResponse | null>(null);
  const [configError, setConfigError] = useState<string | null>(null);
  const [model, setModel] = useState("");
  useEffect(() => {
    const ctrl = new AbortController();
    getConfig(ctrl.signal, projectId).then(
      (c) => {
        setConfig(c);
        setConfigError(null);
      },
      (err) => {
        if (!ctrl.signal.aborted) setConfigError(describeError(err));
      },
    );
    return () => ctrl.abort();
  }, [projectId]);
  useEffect(() => {
    if (!config) return;
    let remembered: string | null = null;
    try {
      remembered = window.localStorage.getItem("strata.model");
    } catch {
      // storage unavailable
    }
    setModel(
      (m) =>
        m ||
        resolveModelChoice({
          available: config.models.map((x) => x.id),
          sessionModel,
          remembered,
          defaultModel: config.defaultModel,
        }),
    );
  }, [config, sessionModel]);
  return { config, configError, model, setModel };
}
