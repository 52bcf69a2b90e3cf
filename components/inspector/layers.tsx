"use client";

import { summarizeTransformReport } from "@/lib/llm/transform-report";
import styles from "./inspector.module.css";
import type { InspectorPreview } from "./inspector-api";
import { CopyButton, JsonBlock, Layer, type LayerItem, searchOf } from "./layer";
import { changeLabel, changeLine, matchesFilter, messageSummary } from "./view-model";

/** The six layers' tab ids and titles, in pipeline order. */
export const LAYERS = [
  { id: "entries", title: "Session entries" },
  { id: "agent", title: "Agent messages" },
  { id: "hooks", title: "Context hooks" },
  { id: "llm", title: "LLM messages" },
  { id: "transform", title: "Transform" },
  { id: "payload", title: "Provider payload" },
] as const;

export type LayerId = (typeof LAYERS)[number]["id"];

interface LayerProps {
  preview: InspectorPreview;
  filter: string;
  active: LayerId;
  /** Show a layer (narrow layout: switch its tab) before following a link into it. */
  onShow: (layer: LayerId) => void;
}

function MessageHead({ index, message }: { index: number; message: unknown }) {
  const s = messageSummary(message);
  return (
    <>
      <span className={styles.idx}>#{index}</span> <span className={styles.role}>{s.role}</span>{" "}
      <span className={styles.summary}>{s.text}</span>
    </>
  );
}

function messageItems(prefix: string, messages: readonly unknown[]): LayerItem[] {
  return messages.map((m, i) => ({
    key: `${prefix}-${i}`,
    anchor: `insp-${prefix}-${i}`,
    head: <MessageHead index={i} message={m} />,
    body: <JsonBlock value={m} />,
    search: searchOf(m),
  }));
}

/** Layer 1: the session entries on the path, with boundaries and the agent messages each turns into. */
export function EntriesLayer({ preview, filter, active, onShow }: LayerProps) {
  const items: LayerItem[] = preview.entries.map((e) => ({
    key: e.id,
    head: (
      <>
        <span className={`mono ${styles.idx}`}>{e.id}</span> <span className={styles.role}>{e.type}</span>{" "}
        <span className={styles.summary}>{e.summary}</span>
        {e.target ? (
          <span className="muted">
            {" "}
            ({e.target.action} {e.target.id})
          </span>
        ) : null}
        {e.editedBy ? <span className={styles.warnText}> · edited by {e.editedBy}</span> : null}
        <span className={styles.produces}>
          {!e.inContext ? (
            <span className="muted"> → not in context</span>
          ) : e.producesMessageIndexes.length === 0 ? (
            <span className="muted"> → no message</span>
          ) : (
            <>
              {" →"}
              {e.producesMessageIndexes.map((i) => (
                <a key={i} href={`#insp-agent-${i}`} onClick={() => onShow("agent")}>
                  {" "}
                  #{i}
                </a>
              ))}
            </>
          )}
        </span>
      </>
    ),
    marker: e.boundary ? (
      <div className={styles.boundary} data-testid="entry-boundary">
        {e.boundary === "compaction" ? "compaction boundary" : "context_edit boundary"}
      </div>
    ) : undefined,
    search: searchOf(e),
    tone: e.producesMessageIndexes.length === 0 ? "muted" : undefined,
  }));
  return (
    <Layer
      n={1}
      id="insp-layer-entries"
      title="Session entries"
      hint="The path from the root to the current leaf; → the agent messages each entry turns into."
      items={items}
      filter={filter}
      active={active === "entries"}
      empty="The session has no entries yet."
    />
  );
}

/** Layer 2: the agent messages after the session projection (plus the system patch and the new user message). */
export function AgentLayer({ preview, filter, active }: LayerProps) {
  return (
    <Layer
      n={2}
      id="insp-layer-agent"
      title="Agent messages"
      hint="After the session projection, then the system patch (if any) and this prompt."
      items={messageItems("agent", preview.agentMessages)}
      filter={filter}
      active={active === "agent"}
      empty="No messages."
    />
  );
}

/** Layer 3: what extensions' `context` hooks changed (never stored). */
export function HooksLayer({ preview, filter, active }: LayerProps) {
  const hooks = preview.contextHookChanges;
  const items: LayerItem[] = hooks.details.map((d, i) => ({
    key: `hook-${i}`,
    head: (
      <>
        <span className={styles.role}>{d.kind}</span> message #{d.index} ({d.role})
      </>
    ),
    search: searchOf(d),
  }));
  return (
    <Layer
      n={3}
      id="insp-layer-hooks"
      title="Context hooks"
      hint="Messages extensions' context hooks added, removed or edited for this request only."
      items={items}
      filter={filter}
      active={active === "hooks"}
      extra={
        <p className={styles.counts}>
          added {hooks.added} · removed {hooks.removed} · edited {hooks.edited}
          {hooks.hooks.length > 0 ? <span className="muted"> · hooks: {hooks.hooks.join(", ")}</span> : null}
        </p>
      }
      empty={
        hooks.hooks.length === 0
          ? "No extension hooks context for this session: the messages go on unchanged."
          : "The context hooks changed nothing for this request."
      }
    />
  );
}

/** Layer 4: the LLM messages after `convertToLlm` (with the session's `blockImages` applied). */
export function LlmLayer({ preview, filter, active }: LayerProps) {
  return (
    <Layer
      n={4}
      id="insp-layer-llm"
      title="LLM messages"
      hint="After convertToLlm (blockImages applied). System messages are not sent as messages: they make the system prompt."
      items={messageItems("llm", preview.llmMessages)}
      filter={filter}
      active={active === "llm"}
      empty="No messages."
    />
  );
}

/** Layer 5: each change `transformMessages` made for the target model, with its reason; then its output. */
export function TransformLayer({ preview, filter, active, onShow }: LayerProps) {
  const report = preview.transformReport;
  const toLlm = preview.requestMessageIndexes;
  const notices = summarizeTransformReport(report);
  const items: LayerItem[] = report.changes.map((c, i) => ({
    key: `change-${i}`,
    head: (
      <span data-testid="transform-change">
        <strong>{changeLabel(c.kind)}</strong>
        <span className={styles.changeLine}>{changeLine(c).slice(changeLabel(c.kind).length)}</span>
        {c.messageIndex !== null && toLlm[c.messageIndex] !== undefined ? (
          <a href={`#insp-llm-${toLlm[c.messageIndex]}`} onClick={() => onShow("llm")}>
            {" "}
            (LLM #{toLlm[c.messageIndex]})
          </a>
        ) : null}
      </span>
    ),
    body: c.detail !== undefined ? <JsonBlock value={c.detail} /> : undefined,
    search: searchOf(changeLine(c), c),
  }));
  const out = preview.transformedMessages;
  const output = (
    <details className={styles.output}>
      <summary>
        Output: {out.length} message{out.length === 1 ? "" : "s"} sent
      </summary>
      <ol className={styles.items}>
        {out.map((m, i) => {
          const origin = report.origins[i];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the output list never reorders
            <li key={i}>
              <details>
                <summary className={styles.itemHead}>
                  <MessageHead index={i} message={m} />
                  <span className="muted">
                    {origin === undefined
                      ? ""
                      : origin === null
                        ? " · inserted"
                        : ` · from request #${origin}`}
                  </span>
                </summary>
                <JsonBlock value={m} />
              </details>
            </li>
          );
        })}
      </ol>
    </details>
  );
  return (
    <Layer
      n={5}
      id="insp-layer-transform"
      title={`Transform for ${preview.model.ref}`}
      hint="What transformMessages changed in the request's messages for this model, and why."
      items={items}
      filter={filter}
      active={active === "transform"}
      extra={
        <>
          {notices.length > 0 ? (
            <ul className={styles.notices} aria-label="Chat notices for this request">
              {notices.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
          {output}
        </>
      }
      empty="No change: the history is sent as it is."
    />
  );
}

/** Layer 6: the provider payload exactly as it would be sent (secrets masked), pretty, with copy buttons. */
export function PayloadLayer({ preview, filter, active }: LayerProps) {
  const payload = preview.payload;
  const failure = preview.diagnostics.find((d) => d.source === "payload");
  const exact = payload ? JSON.stringify(payload.body) : "";
  const pretty = payload ? JSON.stringify(payload.body, null, 2) : "";
  const matches = payload ? matchesFilter(filter, searchOf(payload.body, payload.url)) : false;
  return (
    <Layer
      n={6}
      id="insp-layer-payload"
      title="Provider payload"
      hint="The exact JSON body (placeholder keys; secrets masked)."
      items={[]}
      count={payload ? `${exact.length.toLocaleString("en-US")} bytes` : undefined}
      filter={filter}
      active={active === "payload"}
      extra={
        payload ? (
          <div className={styles.payload}>
            <p className="mono" data-testid="payload-url">
              POST {payload.url}
            </p>
            <div className={styles.actions}>
              <CopyButton label="Copy body" text={exact} />
              <CopyButton label="Copy pretty" text={pretty} />
            </div>
            {matches ? null : <p className="muted">Nothing in the payload matches “{filter.trim()}”.</p>}
            <pre className={styles.json} data-testid="payload-json" hidden={!matches}>
              {pretty}
            </pre>
          </div>
        ) : null
      }
      empty={
        payload
          ? null
          : failure
            ? `${failure.message}. Pick another model, or check the provider's settings (base URL, STRATA_MODELS) in the workspace.`
            : "No payload was built."
      }
    />
  );
}
