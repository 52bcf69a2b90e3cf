import { writeFileSync } from "node:fs";
import { renderShareDocument, renderShareFilePage } from "@/lib/share/render/document";
import { assistant, messageEntry, snapshotOf } from "./unit/share/render-fixture";
import type { SessionEntry } from "@/lib/session/entries";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const e = (x: Record<string, unknown>) => ({ parentId: null, timestamp: "2026-01-02T10:00:00.000Z", ...x }) as SessionEntry;
const entries: SessionEntry[] = [
  messageEntry("u1", null, { role: "user", content: [{ type: "text", text: "The parser fails on `a < b` — can you **fix** it? My key is OPENAI_API_KEY=[redacted:OpenAIAPIKey]" }, { type: "image", mimeType: "image/png", data: PNG }], timestamp: 1 }),
  messageEntry("a1", "u1", assistant([
    { type: "thinking", thinking: "The tokenizer treats `<` as a tag opener. Let me read the file." },
    { type: "text", text: "Let me look at the tokenizer first." },
    { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/tokenize.ts" } },
    { type: "toolCall", id: "c2", name: "bash", arguments: { command: "npm test -- tokenize" } },
  ], { stopReason: "toolUse" })),
  messageEntry("r1", "a1", { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "export function tokenize(s: string) {\n  return s.split(/(<)/);\n}" }], isError: false, timestamp: 2 }),
  messageEntry("r2", "r1", { role: "toolResult", toolCallId: "c2", toolName: "bash", content: [{ type: "text", text: "FAIL tokenize.test.ts\n  ✕ splits a < b" }], isError: true, timestamp: 2 }),
  e({ type: "model_change", id: "m1", provider: "anthropic", modelId: "claude-sonnet-4-5" }),
  e({ type: "compaction", id: "k1", summary: "## Goal\nFix the tokenizer.\n\n## Progress\n- Found the bug in `tokenize.ts`", firstKeptEntryId: "r2", tokensBefore: 48213 }),
  messageEntry("a2", "k1", assistant([
    { type: "text", text: "Found it. The split regex captures `<` unconditionally. Here is the fix:\n\n```ts\nexport function tokenize(s: string) {\n  return s.match(/\\w+|[<>=]+|\\S/g) ?? [];\n}\n```\n\n| case | before | after |\n|---|---|---|\n| `a < b` | fails | passes |\n\nSee [the docs](https://example.com/docs) and ![diagram](https://evil.example/x.png). <script>alert(1)</script>" },
    { type: "toolCall", id: "c3", name: "edit", arguments: { path: "src/tokenize.ts", oldText: "s.split(/(<)/)", newText: "s.match(/\\w+|[<>=]+|\\S/g) ?? []" } },
  ])),
  messageEntry("r3", "a2", { role: "toolResult", toolCallId: "c3", toolName: "edit", content: [{ type: "text", text: "Edited src/tokenize.ts" }], isError: false, timestamp: 3 }),
  messageEntry("sh", "r3", { role: "bashExecution", command: "npm test", output: "✓ 12 tests passed", exitCode: 0, cancelled: false, truncated: false, timestamp: 4 }),
  e({ type: "custom", id: "cp", customType: "strata.checkpoint", data: { kind: "restore", commit: "abcdef0123456" } }),
  messageEntry("a3", "sh", assistant([{ type: "text", text: "All tests pass now." }])),
  e({ type: "label", id: "lb", targetId: "a3", label: "fixed" }),
];
const snapshot = snapshotOf(entries, {
  title: "Fix the tokenizer on a < b",
  system: { prompt: "You are an expert coding assistant operating inside pi…\n\n# Project context\nAlways run the tests.", sources: [{ label: "Project context", path: "/project/AGENTS.md" }] },
  files: [
    { path: "src/tokenize.ts", size: 92, mode: "100644" },
    { path: "src/tokenize.test.ts", size: 180, mode: "100644" },
    { path: ".env", size: 40, mode: "100644" },
    { path: "assets/logo.png", size: 18220, mode: "100644", omitted: "binary" },
  ],
  redactions: [
    { site: { kind: "entry", entry: 0, line: 1 }, rule: "@secretlint/secretlint-rule-preset-recommend", kind: "OpenAIAPIKey", excerpt: "My key is OPENAI_API_KEY=[redacted:OpenAIAPIKey]" },
    { site: { kind: "file", path: ".env", line: 1 }, rule: "strata/dotenv", kind: "dotenv", excerpt: "DATABASE_URL=[redacted:dotenv]" },
  ],
});
const code = "// Split source text into tokens.\nexport function tokenize(s: string): string[] {\n  /* words, operators,\n     anything else */\n  return s.match(/\\w+|[<>=]+|\\S/g) ?? [];\n}\n\nconst answer = 42; // [redacted:owner]\n";
const fileTexts = { "src/tokenize.ts": code, "src/tokenize.test.ts": 'import { tokenize } from "./tokenize";\ntest("a < b", () => expect(tokenize("a < b")).toEqual(["a", "<", "b"]));\n', ".env": "DATABASE_URL=[redacted:dotenv]\n" };
writeFileSync("/tmp/render-shots/page.html", renderShareDocument(snapshot, { mode: "page", token: "tok_1234567890abcdefghijkl", createdAt: "2026-01-02T10:00:00Z", expiresAt: "2026-02-01T00:00:00Z" }));
writeFileSync("/tmp/render-shots/export.html", renderShareDocument(snapshot, { mode: "export", fileTexts }));
writeFileSync("/tmp/render-shots/file.html", renderShareFilePage(snapshot, { path: "src/tokenize.ts", size: 92, mode: "100644" }, code, "tok"));
