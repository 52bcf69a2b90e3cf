/**
 * A tiny incremental parser for `text/event-stream` (the WHATWG server-sent events format):
 * feed it text chunks as they arrive, in any split, and it calls `onEvent` once per complete event.
 */

export interface SseEvent {
  /** The `event:` field, or "message" when absent. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
  /** The last `id:` field seen, if any. */
  id?: string;
}

export interface SseParser {
  /** Feeds the next chunk of decoded text. */
  feed(chunk: string): void;
  /** Flushes a trailing line at end of stream (an unterminated event is discarded, as the spec says). */
  end(): void;
}

export function createSseParser(onEvent: (event: SseEvent) => void): SseParser {
  let buffer = "";
  let first = true;
  let eventType = "";
  let data: string[] = [];
  let lastId: string | undefined;

  const dispatch = () => {
    if (data.length > 0) {
      const ev: SseEvent = { event: eventType || "message", data: data.join("\n") };
      if (lastId !== undefined) ev.id = lastId;
      onEvent(ev);
    }
    eventType = "";
    data = [];
  };

  const processLine = (line: string) => {
    if (line === "") {
      dispatch();
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        eventType = value;
        break;
      case "data":
        data.push(value);
        break;
      case "id":
        if (!value.includes("\0")) lastId = value;
        break;
      default:
        // "retry" and unknown fields are ignored.
        break;
    }
  };

  const drain = (final: boolean) => {
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer[i];
      if (ch === "\n") {
        processLine(buffer.slice(start, i));
        start = i + 1;
      } else if (ch === "\r") {
        // A "\r" at the very end may be the first half of "\r\n": wait for more input.
        if (i === buffer.length - 1 && !final) break;
        processLine(buffer.slice(start, i));
        if (buffer[i + 1] === "\n") i++;
        start = i + 1;
      }
    }
    buffer = buffer.slice(start);
  };

  return {
    feed(chunk: string) {
      if (first && chunk.length > 0) {
        first = false;
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      }
      buffer += chunk;
      drain(false);
    },
    end() {
      drain(true);
      // Whatever is left is an unterminated line; it cannot complete an event.
      buffer = "";
      eventType = "";
      data = [];
    },
  };
}

/**
 * Reads a byte stream of server-sent events to its end, calling `onEvent` per event.
 * Rejects with the reader's error (an AbortError when the fetch is aborted).
 */
export async function readSseStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: SseEvent) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser(onEvent);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
