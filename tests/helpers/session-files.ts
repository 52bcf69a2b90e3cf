/** pi session files for import tests: a large valid one, and the header the poisoned ones start with. */

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
