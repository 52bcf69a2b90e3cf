"use client";

/**
 * The context inspector: what the model would see on the next request of a session's current branch, layer by
 * layer, for a model the user picks — (1) the session entries on the path with compaction and `context_edit`
 * boundaries and the messages each turns into, (2) the agent messages after the session projection, (3) what
 * `context` hooks changed, (4) the LLM messages after `convertToLlm`, (5) each change `transformMessages` made for
 * that model with its reason, (6) the exact provider payload (secrets masked) — plus the system prompt as sections
 * with their sources and trust gates, the tool declarations, a token estimate against the context window and the
 * cost of the last turns. Everything comes from one call, `POST /api/sessions/:id/preview`, the same
 * `buildContextPreview` as `npx strata preview`; nothing is stored (picking a model here does not switch the
 * session). It is mounted in the chat pane (inspector-panel.tsx, tabs) and as a full page for wide screens
 * (inspector-page.tsx, columns). A filter box filters the items of every layer at once.
 */
import { useId, useState } from "react";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { RecentCostTable, SystemSections, TokenBar, ToolDeclarations } from "./extras";
import styles from "./inspector.module.css";
import {
  AgentLayer,
  EntriesLayer,
  HooksLayer,
  LAYERS,
  type LayerId,
  LlmLayer,
  PayloadLayer,
  TransformLayer,
} from "./layers";
import { useContextPreview, useInspectorModels } from "./use-context-preview";

/** Props of {@link ContextInspector}. */
export interface ContextInspectorProps {
  projectId: string;
  /** The session inspected; null: none open (the inspector says so). */
  sessionId: string | null;
  /** The model the chat would use (`provider/id`): followed until the user picks another here. */
  chatModel?: string | null;
  /** `panel`: tabs (the narrow chat pane); `page`: columns on wide screens, tabs below 1200 px. */
  layout: "panel" | "page";
  /** Changes when the session grew (a run ended, the branch moved): the preview is asked again. */
  refreshKey?: string | number;
  /** Link to the full page (panel only). */
  fullPageHref?: string;
}

/** The inspector (see the file's docstring). */
export function ContextInspector({
  projectId,
  sessionId,
  chatModel = null,
  layout,
  refreshKey = 0,
  fullPageHref,
}: ContextInspectorProps) {
  const models = useInspectorModels(projectId, chatModel);
  const [picked, setPicked] = useState<string | null>(null);
  const model = picked ?? (chatModel || models.model);
  const [draft, setDraft] = useState("");
  const [text, setText] = useState("");
  const [filter, setFilter] = useState("");
  const [tab, setTab] = useState<LayerId>("transform");
  const ids = useId();
  const noModel = models.config !== null && (!models.config.configured || models.config.models.length === 0);
  const request = model && !noModel ? { text, model } : null;
  const preview = useContextPreview(sessionId, request, refreshKey);
  const data = preview.data;

  const show = (layer: LayerId) => setTab(layer);
  const props = data ? { preview: data, filter, active: tab, onShow: show } : null;

  return (
    <div className={`${styles.inspector} ${layout === "page" ? styles.page : styles.panel}`}>
      <form
        className={styles.toolbar}
        onSubmit={(e) => {
          e.preventDefault();
          if (draft === text) preview.refresh();
          else setText(draft);
        }}
      >
        <label className={styles.field}>
          <span>Model</span>
          <select
            aria-label="Inspector model"
            value={model}
            onChange={(e) => setPicked(e.target.value)}
            disabled={!models.config || noModel}
          >
            {models.config?.models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.id}){m.input.includes("image") ? "" : " · text only"}
              </option>
            ))}
          </select>
        </label>
        <label className={`${styles.field} ${styles.grow}`}>
          <span>Next prompt</span>
          <input
            aria-label="Prompt to preview"
            value={draft}
            placeholder="The prompt to preview (empty: an empty message)"
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-small" disabled={!request || !sessionId}>
          Preview
        </button>
        <label className={`${styles.field} ${styles.grow}`}>
          <span>Filter</span>
          <input
            type="search"
            aria-label="Filter all layers"
            value={filter}
            placeholder="Filter items in every layer"
            onChange={(e) => setFilter(e.target.value)}
          />
        </label>
        {preview.loading ? <Spinner label="Building the preview" /> : null}
        {fullPageHref ? (
          <a href={fullPageHref} className={styles.fullPage}>
            Open full page ↗
          </a>
        ) : null}
      </form>

      {!sessionId ? <Notice kind="info">Open or create a session to inspect its next request.</Notice> : null}
      {models.configError ? (
        <Notice kind="error" title="Could not read the model configuration">
          {models.configError}. Reload the page; if it keeps failing, the server log says why.
        </Notice>
      ) : null}
      {noModel && models.config ? (
        <Notice kind="warning" title="No model configured: nothing to preview">
          {models.config.help}
        </Notice>
      ) : null}
      {preview.error ? (
        <Notice
          kind="error"
          title="The preview failed"
          actions={
            <button type="button" className="btn btn-small" onClick={preview.refresh}>
              Retry
            </button>
          }
        >
          {preview.error}
          {data ? " The layers below are from the previous preview." : ""} Check the model and the prompt,
          then retry.
        </Notice>
      ) : null}
      {sessionId && request && !data && !preview.error ? <Spinner label="Building the preview" /> : null}

      {data && props ? (
        <>
          <div className={styles.summaryRow}>
            <p className={styles.target}>
              Next request of the current branch on <strong>{data.model.ref}</strong>
              {data.model.input.includes("image") ? "" : " (no image input)"} · thinking {data.thinkingLevel}{" "}
              · {data.trusted ? "project trusted" : "project not trusted"}
            </p>
            <TokenBar preview={data} />
          </div>
          {data.diagnostics.length > 0 ? (
            <Notice
              kind={data.diagnostics.some((d) => d.type === "error") ? "error" : "info"}
              title="Diagnostics"
            >
              <ul className={styles.diagnostics}>
                {data.diagnostics.map((d, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: diagnostics never reorder
                  <li key={i}>
                    <strong>{d.source}</strong> {d.type}: {d.message}
                    {d.path ? <span className="mono"> ({d.path})</span> : null}
                  </li>
                ))}
              </ul>
            </Notice>
          ) : null}
          <div className={styles.tabs} role="tablist" aria-label="Layers">
            {LAYERS.map((l, i) => (
              <button
                key={l.id}
                type="button"
                role="tab"
                id={`${ids}-tab-${l.id}`}
                aria-selected={tab === l.id}
                aria-controls={`insp-layer-${l.id}`}
                className={styles.tab}
                onClick={() => setTab(l.id)}
              >
                {i + 1} {l.title}
              </button>
            ))}
          </div>
          <div className={styles.layers}>
            <EntriesLayer {...props} />
            <AgentLayer {...props} />
            <HooksLayer {...props} />
            <LlmLayer {...props} />
            <TransformLayer {...props} />
            <PayloadLayer {...props} />
          </div>
          <div className={styles.extras}>
            <SystemSections preview={data} filter={filter} />
            <ToolDeclarations preview={data} filter={filter} />
            <section className={styles.card} aria-label="Recent cost">
              <h3>Cost of the last turns</h3>
              <RecentCostTable preview={data} />
            </section>
          </div>
        </>
      ) : null}
    </div>
  );
}
