import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@/lib/session/entries";
import { renderEntries, renderImages, toolMainArg } from "@/lib/share/render/entries";
import { assistant, basicEntries, messageEntry } from "./render-fixture";

const entry = (e: Record<string, unknown>) =>
  ({ id: "x1", parentId: null, timestamp: "2026-01-02T10:00:00.000Z", ...e }) as SessionEntry;

describe("renderEntries", () => {
  it("renders a turn like the chat: user, thinking, the tool call with its result inside, the answer", () => {
    const html = renderEntries(basicEntries());
    expect(html).toBe(
      [
        '<div class="entry" id="e0"><article class="message message-user" aria-label="You"><div class="markdown"><p>Please <strong>fix</strong> the parser</p></div></article></div>',
        '<div class="entry" id="e1"><article class="message message-assistant" aria-label="Assistant" data-model="claude-test"><details class="thinking"><summary>Thinking</summary><div class="thinking-text">Look at the file first.</div></details><details class="tool-call status-done" data-tool-name="read"><summary><span class="tool-name">read</span><span class="tool-arg mono">src/parse.ts</span><span class="tool-status status-done">done</span></summary><div class="tool-body"><div class="tool-section-label">Arguments</div><pre class="tool-args">{\n  &quot;path&quot;: &quot;src/parse.ts&quot;\n}</pre><div class="tool-section-label">Result</div><pre id="e2" class="tool-result">export const x = 1;</pre></div></details></article></div>',
        '<div class="entry" id="e3"><article class="message message-assistant" aria-label="Assistant" data-model="claude-test"><div class="markdown"><p>Done: see <code>parse.ts</code>.</p></div></article></div>',
      ].join("\n"),
    );
  });

  it("shows an error result as Error, a call without result as 'no result'", () => {
    const html = renderEntries([
      messageEntry(
        "a",
        null,
        assistant([
          { type: "toolCall", id: "c1", name: "bash", arguments: { command: "false" } },
          { type: "toolCall", id: "c2", name: "ls", arguments: {} },
        ]),
      ),
      messageEntry("r", "a", {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "bash",
        content: [{ type: "text", text: "exit 1" }],
        isError: true,
        timestamp: 1,
      }),
    ]);
    expect(html).toContain('<details class="tool-call status-error" data-tool-name="bash">');
    expect(html).toContain(
      '<div class="tool-section-label">Error</div><pre id="e1" class="tool-result tool-error">exit 1</pre>',
    );
    expect(html).toContain('<span class="tool-status status-interrupted">no result</span>');
  });

  it("escapes hostile tool names, arguments and results, and badges a call holding a redaction", () => {
    const evil = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const html = renderEntries([
      messageEntry(
        "a",
        null,
        assistant([{ type: "toolCall", id: "c1", name: evil, arguments: { path: evil } }]),
      ),
      messageEntry("r", "a", {
        role: "toolResult",
        toolCallId: "c1",
        toolName: evil,
        content: [{ type: "text", text: `${evil} key=[redacted:aws]` }],
        isError: false,
        timestamp: 1,
      }),
    ]);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain(
      'data-tool-name="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;"',
    );
    expect(html).toContain('<span class="badge badge-redacted">redacted</span>');
    expect(html).toContain('key=<mark class="redacted">[redacted:aws]</mark></pre>');
  });

  it("labels what the chat keeps apart as pi does", () => {
    const html = renderEntries([
      entry({ type: "model_change", id: "m", provider: "openai", modelId: "gpt-<5>" }),
      entry({ type: "thinking_level_change", id: "t", thinkingLevel: "high" }),
      entry({
        type: "compaction",
        id: "c",
        summary: "Did **things**",
        firstKeptEntryId: "m",
        tokensBefore: 123456,
      }),
      entry({ type: "branch_summary", id: "b", fromId: "root", summary: "Tried X" }),
      entry({ type: "custom_message", id: "cm", customType: "note<x>", content: "hello", display: true }),
      entry({
        type: "custom_message",
        id: "hidden",
        customType: "secret",
        content: "not shown",
        display: false,
      }),
      entry({
        type: "custom",
        id: "cp",
        customType: "strata.checkpoint",
        data: { kind: "restore", commit: "abcdef0123" },
      }),
      entry({ type: "label", id: "l", targetId: "b", label: "good <one>" }),
      entry({ type: "session_info", id: "si", name: "n" }),
      entry({ type: "future_type", id: "f" }),
    ]);
    expect(html).toBe(
      [
        '<div class="entry" id="e0"><div class="meta-line model-change">Switched to model: <span class="model-name">openai/gpt-&lt;5&gt;</span></div></div>',
        '<div class="entry" id="e1"><div class="meta-line thinking-change">Thinking level: high</div></div>',
        '<div class="entry" id="e2"><article class="message message-meta compaction"><details><summary><span class="meta-tag">[compaction]</span> Compacted from 123,456 tokens</summary><div class="markdown"><p>Did <strong>things</strong></p></div></details></article></div>',
        '<div class="entry" id="e3"><div class="entry-label"><span class="badge badge-label">good &lt;one&gt;</span></div><article class="message message-meta branch-summary"><details><summary>Branch Summary</summary><div class="markdown"><p>Tried X</p></div></details></article></div>',
        '<div class="entry" id="e4"><article class="message message-meta custom-message"><div class="meta-tag">[note&lt;x&gt;]</div><div class="markdown"><p>hello</p></div></article></div>',
        '<div class="entry" id="e6"><div class="meta-line custom">Files restored (commit abcdef0)</div></div>',
        '<div class="entry" id="e9"><div class="meta-line unknown">Entry of type future_type</div></div>',
      ].join("\n"),
    );
  });

  it("renders a !command, a failed and an aborted turn, an orphan result, a system prompt", () => {
    const html = renderEntries([
      messageEntry("s", null, {
        role: "system",
        content: "You are pi.",
        toolsAdded: [{ name: "read" }, { name: "bash" }],
        timestamp: 0,
      }),
      messageEntry("sh", "s", {
        role: "bashExecution",
        command: "ls <dir>",
        output: "",
        exitCode: 2,
        cancelled: false,
        truncated: false,
        timestamp: 1,
      }),
      messageEntry("e", "sh", assistant([], { stopReason: "error", errorMessage: "429 <too many>" })),
      messageEntry("ab", "e", assistant([{ type: "text", text: "part" }], { stopReason: "aborted" })),
      messageEntry("o", "ab", {
        role: "toolResult",
        toolCallId: "gone",
        toolName: "grep",
        content: [{ type: "text", text: "hit" }],
        isError: false,
        timestamp: 2,
      }),
    ]);
    expect(html).toContain(
      '<article class="message message-meta message-system"><details><summary>System prompt</summary><pre class="system-text">You are pi.</pre><p class="muted">Tools: read, bash</p></details></article>',
    );
    expect(html).toContain(
      '<article class="message message-shell shell-failed" aria-label="Shell command"><header class="shell-header"><code class="shell-command"><span class="shell-prompt" aria-hidden="true">$ </span>ls &lt;dir&gt;</code><span class="shell-status shell-status-failed">exit 2</span></header><pre class="shell-output">(no output)</pre></article>',
    );
    expect(html).toContain('<div class="stop-marker stop-error">Error: 429 &lt;too many&gt;</div>');
    expect(html).toContain('<article class="message message-assistant stop-aborted"');
    expect(html).toContain('<div class="stop-marker stop-aborted">Aborted</div>');
    expect(html).toContain(
      '<article class="message message-tool"><details class="tool-call status-done"><summary><span class="tool-name">grep</span><span class="tool-status status-done">result</span></summary><pre class="tool-result">hit</pre></details></article>',
    );
  });

  it("is total over malformed stored content", () => {
    const html = renderEntries([
      messageEntry("a", null, null),
      messageEntry("b", "a", {
        role: "assistant",
        content: [null, { type: "text", text: 5 }, { type: "toolCall" }],
      }),
      messageEntry("c", "b", { role: "user", content: null }),
    ]);
    expect(html).toBe(
      [
        '<div class="entry" id="e1"><article class="message message-assistant" aria-label="Assistant"></article></div>',
        '<div class="entry" id="e2"><article class="message message-user" aria-label="You"><div class="markdown"></div></article></div>',
      ].join("\n"),
    );
  });
});

describe("renderImages", () => {
  it("shows png/jpeg/gif/webp data inline and names anything else", () => {
    expect(renderImages([{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }])).toBe(
      '<div class="message-images"><img class="message-image" alt="Attached image" src="data:image/png;base64,iVBORw0KGgo="></div>',
    );
    expect(renderImages([{ type: "image", mimeType: "image/svg+xml", data: "PHN2Zz4=" }])).toBe(
      '<div class="message-images"><span class="badge">[image image/svg+xml not shown]</span></div>',
    );
    expect(renderImages([{ type: "image", mimeType: "image/png", data: '"><script>' }])).toBe(
      '<div class="message-images"><span class="badge">[image image/png not shown]</span></div>',
    );
    expect(renderImages("text")).toBe("");
  });
});

describe("toolMainArg", () => {
  it("picks the identifying argument, one line, cut at 80", () => {
    expect(toolMainArg({ limit: 3, path: "a.ts" })).toBe("a.ts");
    expect(toolMainArg({ command: "ls\n  -la" })).toBe("ls -la");
    expect(toolMainArg({ other: "x".repeat(100) })).toBe(`${"x".repeat(79)}…`);
    expect(toolMainArg(null)).toBe("");
  });
});
