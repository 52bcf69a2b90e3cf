/**
 * pi session files for import tests: a large valid one, the header the poisoned ones start with, and an Anthropic
 * history with images and thinking for the context inspector.
 */

/** The header line of {@link largeSessionFile} and of the small test files. */
export const SESSION_HEADER = JSON.stringify({
  type: "session",
  version: 3,
  id: "0198a6f0-0000-7000-8000-00000000b0b0",
  timestamp: "2026-01-01T09:00:00.000Z",
  cwd: "/srv/project",
});

const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/**
 * A valid pi session file of at least `bytes` bytes (UTF-8): a linear chain of user and assistant messages of about
 * `repeat` × 42 bytes each (1 KB by default), with multi-byte characters (so byte ranges split characters).
 * @returns the text, its byte length, the number of entries (header excluded) and the last entry's id.
 */
export function largeSessionFile(
  bytes: number,
  repeat = 24,
): {
  text: string;
  bytes: number;
  entries: number;
  leafId: string;
} {
  const lines = [SESSION_HEADER];
  let size = Buffer.byteLength(SESSION_HEADER) + 1;
  let parent: string | null = null;
  const filler = "lorem ipsum dolor sit amet — ünïcødé ✓ ".repeat(repeat);
  let i = 0;
  for (; size < bytes; i++) {
    const id = i.toString(16).padStart(8, "0");
    const role = i % 2 === 0 ? "user" : "assistant";
    const content = [{ type: "text", text: `${i}: ${filler}` }];
    const message =
      role === "user"
        ? { role, content, timestamp: 1767258000000 + i }
        : {
            role,
            content,
            api: "anthropic-messages",
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            usage,
            stopReason: "stop",
            timestamp: 1767258000000 + i,
          };
    const line = JSON.stringify({
      type: "message",
      id,
      parentId: parent,
      timestamp: "2026-01-01T09:00:01.000Z",
      message,
    });
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
    parent = id;
  }
  const text = `${lines.join("\n")}\n`;
  return { text, bytes: Buffer.byteLength(text), entries: i, leafId: parent ?? "" };
}

/** A small file: the header and `entries`, one JSON line each. */
export function sessionFile(...entries: unknown[]): string {
  return `${[SESSION_HEADER, ...entries.map((e) => JSON.stringify(e))].join("\n")}\n`;
}

/** A 1×1 PNG (base64): the images of {@link ANTHROPIC_IMAGE_HISTORY}. */
export const HISTORY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
/** A Claude Sonnet turn's usage, priced at $3 / $15 per million input / output tokens. */
const sonnetUsage = (input: number, output: number) => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: {
    input: input * 3e-6,
    output: output * 15e-6,
    cacheRead: 0,
    cacheWrite: 0,
    total: input * 3e-6 + output * 15e-6,
  },
});
const sonnet = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" };
const at = (s: number) => `2026-01-01T09:00:${String(s).padStart(2, "0")}.000Z`;

/**
 * A history that came from Anthropic (`anthropic/claude-sonnet-4-5`): a user message with two images, thinking with
 * signatures, a redacted thinking block, a `read` tool call whose result has an image. Switched to a model without
 * image input of another provider (`openai/gpt-text-only`), `transformMessages` changes every kind of block in it:
 * the context inspector's end-to-end test (tests/e2e/context-inspector.spec.ts) and the preview-equals-sent route
 * test (tests/integration/http/preview-payload-sent.test.ts) import it.
 */
export const ANTHROPIC_IMAGE_HISTORY = sessionFile(
  {
    type: "model_change",
    id: "e0000001",
    parentId: null,
    timestamp: at(1),
    provider: "anthropic",
    modelId: "claude-sonnet-4-5",
  },
  {
    type: "message",
    id: "e0000002",
    parentId: "e0000001",
    timestamp: at(2),
    message: {
      role: "user",
      content: [
        { type: "text", text: "What do these two screenshots show?" },
        { type: "image", data: HISTORY_PNG, mimeType: "image/png" },
        { type: "image", data: HISTORY_PNG, mimeType: "image/png" },
      ],
      timestamp: 1767258002000,
    },
  },
  {
    type: "message",
    id: "e0000003",
    parentId: "e0000002",
    timestamp: at(3),
    message: {
      role: "assistant",
      content: [
        {
          type: "thinking",
          thinking: "Two screenshots; the README may say more.",
          thinkingSignature: "sig-anthropic-1",
        },
        { type: "toolCall", id: "toolu_01A", name: "read", arguments: { path: "README.md" } },
      ],
      ...sonnet,
      usage: sonnetUsage(1200, 40),
      stopReason: "toolUse",
      timestamp: 1767258003000,
    },
  },
  {
    type: "message",
    id: "e0000004",
    parentId: "e0000003",
    timestamp: at(4),
    message: {
      role: "toolResult",
      toolCallId: "toolu_01A",
      toolName: "read",
      content: [
        { type: "text", text: "# Demo\n" },
        { type: "image", data: HISTORY_PNG, mimeType: "image/png" },
      ],
      isError: false,
      timestamp: 1767258004000,
    },
  },
  {
    type: "message",
    id: "e0000005",
    parentId: "e0000004",
    timestamp: at(5),
    message: {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "", thinkingSignature: "opaque-redacted-data", redacted: true },
        { type: "thinking", thinking: "Both are the login form.", thinkingSignature: "sig-anthropic-2" },
        { type: "text", text: "Both screenshots show the login form." },
      ],
      ...sonnet,
      usage: sonnetUsage(1300, 60),
      stopReason: "stop",
      timestamp: 1767258005000,
    },
  },
);

/**
 * The study notes' worked example (their "继续修复" walk through the pipeline): a branch of User, Assistant with a
 * tool call, its ToolResult, a user's `!command` (BashExecution), a Custom message and an Assistant that failed
 * (`stopReason: "error"`), from `anthropic/claude-sonnet-4-5`; the next prompt goes to an Anthropic model without
 * image input (`anthropic/claude-text-only` in the test's `STRATA_MODELS`). The preview-equals-sent route test uses it.
 */
export const NOTES_WORKED_EXAMPLE = sessionFile(
  {
    type: "model_change",
    id: "f0000001",
    parentId: null,
    timestamp: at(1),
    provider: "anthropic",
    modelId: "claude-sonnet-4-5",
  },
  {
    type: "message",
    id: "f0000002",
    parentId: "f0000001",
    timestamp: at(2),
    message: {
      role: "user",
      content: [
        { type: "text", text: "登录页的测试失败了，看看截图" },
        { type: "image", data: HISTORY_PNG, mimeType: "image/png" },
      ],
      timestamp: 1767258002000,
    },
  },
  {
    type: "message",
    id: "f0000003",
    parentId: "f0000002",
    timestamp: at(3),
    message: {
      role: "assistant",
      content: [{ type: "toolCall", id: "toolu_02B", name: "bash", arguments: { command: "npm test" } }],
      ...sonnet,
      usage: sonnetUsage(900, 30),
      stopReason: "toolUse",
      timestamp: 1767258003000,
    },
  },
  {
    type: "message",
    id: "f0000004",
    parentId: "f0000003",
    timestamp: at(4),
    message: {
      role: "toolResult",
      toolCallId: "toolu_02B",
      toolName: "bash",
      content: [{ type: "text", text: "FAIL login.test.ts: expected 200, got 401\n" }],
      isError: true,
      timestamp: 1767258004000,
    },
  },
  {
    type: "message",
    id: "f0000005",
    parentId: "f0000004",
    timestamp: at(5),
    message: {
      role: "bashExecution",
      command: "git diff --stat",
      output: " src/login.ts | 4 ++--\n",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 1767258005000,
    },
  },
  {
    type: "custom_message",
    id: "f0000006",
    parentId: "f0000005",
    timestamp: at(6),
    customType: "ci-status",
    content: "CI: the login job failed on main.",
    display: true,
  },
  {
    type: "message",
    id: "f0000007",
    parentId: "f0000006",
    timestamp: at(7),
    message: {
      role: "assistant",
      content: [],
      ...sonnet,
      usage: sonnetUsage(0, 0),
      stopReason: "error",
      errorMessage: "overloaded_error",
      timestamp: 1767258007000,
    },
  },
);
