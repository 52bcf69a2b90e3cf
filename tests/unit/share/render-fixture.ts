/** Snapshots for the share renderer's tests (tests/unit/share/render*.test.ts) and its bench. */
import type { SessionEntry } from "@/lib/session/entries";
import type { ShareSnapshot } from "@/lib/share/types";

const at = (i: number) => new Date(Date.UTC(2026, 0, 2, 10, 0, i)).toISOString();
const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** A message entry `id` (parent `parentId`) holding `message`. */
export function messageEntry(id: string, parentId: string | null, message: unknown, i = 0): SessionEntry {
  return { type: "message", id, parentId, timestamp: at(i), message } as SessionEntry;
}

/** An assistant message with `content` blocks. */
export function assistant(content: unknown[], extra: Record<string, unknown> = {}) {
  return {
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-test",
    usage,
    stopReason: "stop",
    timestamp: 1,
    ...extra,
  };
}

/** A small snapshot: a prompt, a read tool call with its result, an answer; no files, no redactions. */
export function snapshotOf(entries: SessionEntry[], extra: Partial<ShareSnapshot> = {}): ShareSnapshot {
  return {
    version: 1,
    title: "Fix the parser",
    header: {
      type: "session",
      version: 3,
      id: "hdr00001",
      timestamp: "2026-01-02T10:00:00.000Z",
      cwd: "/project",
    },
    entries,
    system: null,
    files: null,
    redactions: [],
    ...extra,
  };
}

/** The usual turn: user prompt, assistant calling `read`, the result, the final answer. */
export function basicEntries(): SessionEntry[] {
  return [
    messageEntry("u1", null, { role: "user", content: "Please **fix** the parser", timestamp: 1 }, 0),
    messageEntry(
      "a1",
      "u1",
      assistant(
        [
          { type: "thinking", thinking: "Look at the file first." },
          { type: "toolCall", id: "call_1", name: "read", arguments: { path: "src/parse.ts" } },
        ],
        { stopReason: "toolUse" },
      ),
      1,
    ),
    messageEntry(
      "r1",
      "a1",
      {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "read",
        content: [{ type: "text", text: "export const x = 1;" }],
        isError: false,
        timestamp: 2,
      },
      2,
    ),
    messageEntry("a2", "r1", assistant([{ type: "text", text: "Done: see `parse.ts`." }]), 3),
  ];
}

/** `n` entries of alternating user prompts, tool calls and results, answers (a long session). */
export function longEntries(n: number): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (let i = 0; out.length < n; i++) {
    const turn = [
      { role: "user", content: `Step ${i}: do **this** and [that](https://example.com/${i})`, timestamp: i },
      assistant([
        {
          type: "text",
          text: `Working on step ${i}.\n\n- one\n- two\n\n\`\`\`ts\nconst a${i} = ${i};\n\`\`\``,
        },
        { type: "toolCall", id: `c${i}`, name: "bash", arguments: { command: `echo ${i}` } },
      ]),
      {
        role: "toolResult",
        toolCallId: `c${i}`,
        toolName: "bash",
        content: [{ type: "text", text: `${i}\n` }],
        isError: false,
        timestamp: i,
      },
      assistant([{ type: "text", text: `Step ${i} done.` }]),
    ];
    for (const [k, m] of turn.entries()) {
      if (out.length >= n) break;
      const id = `e${i}-${k}`;
      out.push(messageEntry(id, parent, m, i));
      parent = id;
    }
  }
  return out;
}
