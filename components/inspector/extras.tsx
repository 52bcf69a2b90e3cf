"use client";

import styles from "./inspector.module.css";
import type { InspectorPreview } from "./inspector-api";
import { JsonBlock } from "./layer";
import { formatTokens, formatUsd, matchesFilter, searchableText } from "./view-model";

/** The token estimate (characters / 4) of system prompt, messages and tools against the model's context window. */
export function TokenBar({ preview }: { preview: InspectorPreview }) {
  const t = preview.tokenEstimate;
  const window = t.contextWindow || preview.model.contextWindow;
  const pct = (n: number) => (window > 0 ? Math.min(100, (n / window) * 100) : 0);
  const share = window > 0 ? Math.round((t.total / window) * 1000) / 10 : 0;
  return (
    <div className={styles.tokens}>
      <div className={styles.bar} aria-hidden="true">
        <span className={styles.barSystem} style={{ width: `${pct(t.system)}%` }} />
        <span className={styles.barTools} style={{ width: `${pct(t.tools)}%` }} />
        <span className={styles.barMessages} style={{ width: `${pct(t.messages)}%` }} />
      </div>
      <p data-testid="token-estimate">
        ~{formatTokens(t.total)} of {formatTokens(window)} tokens ({share}%) — system {formatTokens(t.system)}{" "}
        · tools {formatTokens(t.tools)} · messages {formatTokens(t.messages)}
        <span className="muted"> (estimated: characters / 4)</span>
      </p>
      {t.total > window ? (
        <p className={styles.error} role="alert">
          Over the context window: compact the session (/compact) or pick a model with a larger window.
        </p>
      ) : null}
    </div>
  );
}

/** The cost of the last assistant turns on the path. */
export function RecentCostTable({ preview }: { preview: InspectorPreview }) {
  const c = preview.recentCost;
  if (c.turns.length === 0) return <p className="muted">No assistant turn on this path yet: no cost.</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-label="Cost of the last turns">
        <thead>
          <tr>
            <th>Entry</th>
            <th>Model</th>
            <th>Cost</th>
            <th>Input</th>
            <th>Output</th>
            <th>Cache read</th>
            <th>Cache write</th>
          </tr>
        </thead>
        <tbody>
          {c.turns.map((t) => (
            <tr key={t.entryId}>
              <td className="mono">{t.entryId}</td>
              <td>{t.model}</td>
              <td>{formatUsd(t.costUsd)}</td>
              <td>{formatTokens(t.input)}</td>
              <td>{formatTokens(t.output)}</td>
              <td>{formatTokens(t.cacheRead)}</td>
              <td>{formatTokens(t.cacheWrite)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={2}>Total of these turns</td>
            <td>{formatUsd(c.totalUsd)}</td>
            <td colSpan={4} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** The system prompt as sections, each with its source file and trust gate; then the patch and the whole text. */
export function SystemSections({ preview, filter }: { preview: InspectorPreview; filter: string }) {
  const sources = new Map<string, InspectorPreview["sectionSources"]>();
  for (const src of preview.sectionSources)
    sources.set(src.section, [...(sources.get(src.section) ?? []), src]);
  const names = Object.keys(preview.sections);
  const shown = names.filter((n) => matchesFilter(filter, searchableText(n, preview.sections[n])));
  const patch = preview.systemPatch;
  return (
    <section className={styles.card} aria-label="System prompt">
      <h3>
        System prompt{" "}
        <span className="muted">{preview.systemPrompt.length.toLocaleString("en-US")} characters</span>
      </h3>
      <p className="muted">
        {patch
          ? `This request starts with a system patch: ${
              patch.sections ? `sections ${Object.keys(patch.sections).join(", ")}` : "no section change"
            }${patch.toolsAdded?.length ? `, ${patch.toolsAdded.length} tools declared` : ""}${
              patch.toolsRemoved?.length ? `, ${patch.toolsRemoved.length} removed` : ""
            }.`
          : "The transcript's system state is current: no system patch."}
      </p>
      <ul className={styles.sections}>
        {shown.map((name) => {
          const files = (sources.get(name) ?? []).filter((f) => f.path);
          const gated = (sources.get(name) ?? []).find((f) => f.trustGated);
          return (
            <li key={name}>
              <details open={filter.trim() !== ""}>
                <summary>
                  <strong>{name}</strong>
                  {files.length === 0 ? (
                    <span className="muted">built in</span>
                  ) : (
                    files.map((f) => (
                      <span key={`${f.filesystem}:${f.path}`} className="mono muted" title={f.filesystem}>
                        {f.path}
                        {f.trustGated && !f.trusted ? " (withheld)" : ""}
                      </span>
                    ))
                  )}
                  {gated ? (
                    <span className={`badge ${gated.trusted ? "" : "badge-warn"}`}>
                      {gated.trusted ? "trust-gated: trusted" : "trust-gated: withheld (not trusted)"}
                    </span>
                  ) : null}
                  <span className="muted"> {preview.sections[name]?.length ?? 0} chars</span>
                </summary>
                <pre className={styles.text}>{preview.sections[name]}</pre>
              </details>
            </li>
          );
        })}
      </ul>
      {shown.length === 0 ? <p className="muted">No section matches “{filter.trim()}”.</p> : null}
      <details>
        <summary>The whole system prompt as sent</summary>
        <pre className={styles.text}>{preview.systemPrompt}</pre>
      </details>
    </section>
  );
}

/** The tool declarations the request carries. */
export function ToolDeclarations({ preview, filter }: { preview: InspectorPreview; filter: string }) {
  const tools = preview.toolDeclarations;
  const shown = tools.filter((t) => matchesFilter(filter, searchableText(t)));
  return (
    <section className={styles.card} aria-label="Tool declarations">
      <h3>
        Tool declarations <span className="muted">{tools.length}</span>
      </h3>
      {!tools ? (
        <p className="muted">
          Active tools: {preview.tools.join(", ") || "none"} (declarations not reported by this server).
        </p>
      ) : tools.length === 0 ? (
        <p className="muted">No tools are declared: the model cannot call any.</p>
      ) : (
        <ul className={styles.sections}>
          {shown.map((t) => (
            <li key={t.name}>
              <details open={filter.trim() !== ""}>
                <summary>
                  <strong className="mono">{t.name}</strong> <span className="muted">{t.description}</span>
                </summary>
                <JsonBlock value={t.parameters} />
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
