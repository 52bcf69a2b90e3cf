import { describe, expect, it } from "vitest";
import type { ChatAction } from "@/components/chat/reduce-events";
import { consumeShellStream } from "@/components/chat/run-stream";

const body = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });

describe("consumeShellStream", () => {
  it("hands the command's files_changed paths to onFilesChanged (the tree refreshes after !touch)", async () => {
    const applied: ChatAction[] = [];
    const changed: string[][] = [];
    const message = {
      role: "bashExecution",
      command: "touch new.txt",
      output: "",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 1,
    };
    await consumeShellStream(
      body(
        `event: files_changed\ndata: {"type":"files_changed","paths":["new.txt"],"commit":"abc"}\n\n` +
          `event: message_end\ndata: ${JSON.stringify({ type: "message_end", message })}\n\n`,
      ),
      "shell-1",
      (action) => {
        applied.push(action);
        return null;
      },
      (paths) => changed.push(paths),
    );
    expect(changed).toEqual([["new.txt"]]);
    expect(applied).toEqual([{ type: "shell_message", id: "shell-1", message, final: true }]);
  });
});
