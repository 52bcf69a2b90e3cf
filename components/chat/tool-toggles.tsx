"use client";

import { useEffect, useId, useRef, useState } from "react";
import { describeError } from "@/components/api-client";
import { apiJson, jsonInit } from "@/components/http/api-fetch";
import { Notice } from "@/components/ui/notice";
import { PanelToggle } from "@/components/ui/panel-toggle";
import styles from "./tool-toggles.module.css";

/** One tool of `GET /api/sessions/:id/tools`. */
interface ToolState {
  name: string;
  summary: string;
  active: boolean;
}

interface ToolsResponse {
  tools: ToolState[];
  active: string[];
}

function toolsRequest(sessionId: string, init?: RequestInit): Promise<ToolsResponse> {
  return apiJson(`/api/sessions/${encodeURIComponent(sessionId)}/tools`, init);
}

/**
 * The session's tool toggles (pi `setActiveToolsByName`): one checkbox per registered tool; a change is sent as the
 * new active list (`PUT /api/sessions/:id/tools`) and recorded as a system patch, which the chat then shows
 * (`onChanged` reloads it). Disabled while a run holds the session or for readers; a refused change says why.
 */
export function ToolToggles({
  sessionId,
  busy,
  readOnly = false,
  refreshKey,
  onChanged,
}: {
  sessionId: string | null;
  /** A run holds the session: changes wait until it ends. */
  busy: boolean;
  readOnly?: boolean;
  /** Re-read the tools when it changes (e.g. after a run or a tree navigation). */
  refreshKey?: string;
  onChanged?: () => void;
}) {
  const bodyId = useId();
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<ToolsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Bumped by every change: a read that started before it answers with the old state and is dropped.
  const changes = useRef(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey re-reads the tools on purpose.
  useEffect(() => {
    if (!sessionId) {
      setData(null);
      return;
    }
    const controller = new AbortController();
    const started = changes.current;
    toolsRequest(sessionId, { signal: controller.signal })
      .then((next) => {
        if (controller.signal.aborted || started !== changes.current) return;
        setData(next);
        setError(null);
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setError(`Could not read the session's tools: ${describeError(err)}`);
      });
    return () => controller.abort();
  }, [sessionId, refreshKey]);

  if (!sessionId) return null;

  const toggle = async (name: string, on: boolean) => {
    if (!data) return;
    // Registry order, so a tool turned back on returns to its usual place in the prompt's list.
    const active = data.tools.filter((t) => (t.name === name ? on : t.active)).map((t) => t.name);
    const before = data;
    changes.current += 1;
    // Shown at once; the server's answer replaces it (or the old state comes back with the error).
    setData({ tools: data.tools.map((t) => ({ ...t, active: active.includes(t.name) })), active });
    setSaving(true);
    try {
      const next = await toolsRequest(sessionId, jsonInit("PUT", { active }));
      setData(next);
      setError(null);
      onChanged?.();
    } catch (err) {
      setData(before);
      setError(`The tools were not changed: ${describeError(err)}`);
    } finally {
      setSaving(false);
    }
  };

  const activeCount = data?.active.length;
  return (
    <section className="context-panel" aria-label="Tools">
      <div className="context-header">
        <PanelToggle label="Tools" open={open} controls={bodyId} onToggle={() => setOpen((o) => !o)} />
        {data ? (
          <span className="muted">
            {activeCount} of {data.tools.length} on
          </span>
        ) : null}
      </div>
      {open ? (
        <div id={bodyId} className="context-body">
          {error ? <Notice kind="error">{error}</Notice> : null}
          {busy && !readOnly ? (
            <p className="muted">A run is in progress: change the tools when it has finished.</p>
          ) : null}
          {data ? (
            <ul className={styles.list}>
              {data.tools.map((t) => (
                <li key={t.name} className={styles.item}>
                  <label className={styles.label}>
                    <input
                      type="checkbox"
                      checked={t.active}
                      disabled={busy || readOnly || saving}
                      onChange={(e) => void toggle(t.name, e.target.checked)}
                    />
                    <span className="mono">{t.name}</span>
                    <span className={`muted ${styles.summary}`}>{t.summary}</span>
                  </label>
                </li>
              ))}
            </ul>
          ) : error ? null : (
            <p className="muted">Loading…</p>
          )}
          <p className="muted">
            The model gets the checked tools from your next message; the change appears in the chat as a
            system prompt update.
          </p>
        </div>
      ) : null}
    </section>
  );
}
