/**
 * lib/http/body.ts: content-type checks (415), limits from Content-Length and counted while reading (413 with the
 * limit), bodies shorter than their Content-Length (400 incomplete_body), the runtime's 10 MiB cap, and JSON
 * errors under the limit (400).
 */
import { describe, expect, it } from "vitest";
import {
  formatLimit,
  PROMPT_JSON_LIMIT,
  RUNTIME_BODY_CAP,
  readBody,
  readForm,
  readJson,
  SMALL_JSON_LIMIT,
  UNSIZED_BODY_LIMIT,
} from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";

const MiB = 1024 * 1024;

/** A body streamed in `chunk`-byte pieces of "x" (no Content-Length unless given), counting what was pulled. */
function streamed(total: number, chunk: number, headers: Record<string, string> = {}) {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(chunk, total - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(120));
    },
  });
  const request = new Request("http://x/", { method: "POST", headers, body, duplex: "half" } as RequestInit);
  return { request, pulled: () => sent };
}

async function refusal(
  promise: Promise<unknown>,
): Promise<{ status: number; code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const { status, code, message } = error as ApiError;
  return { status, code, message };
}

const json = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  new Request("http://x/", { method: "POST", headers, body });

describe("readJson", () => {
  it("parses an application/json body (charset parameter and case ignored)", async () => {
    expect(await readJson(json('{"a":1}'), { limit: SMALL_JSON_LIMIT })).toEqual({ a: 1 });
    expect(
      await readJson(json('{"a":2}', { "content-type": "Application/JSON; charset=utf-8" }), {
        limit: SMALL_JSON_LIMIT,
      }),
    ).toEqual({ a: 2 });
  });

  it("refuses text/plain (a cross-site no-cors POST) and a missing Content-Type with 415", async () => {
    expect(
      await refusal(
        readJson(json('{"text":"!echo pwned"}', { "content-type": "text/plain" }), { limit: 100 }),
      ),
    ).toEqual({
      status: 415,
      code: "unsupported_media_type",
      message:
        "This endpoint accepts application/json only (got Content-Type: text/plain). Send the body with Content-Type: application/json.",
    });
    expect(await refusal(readJson(new Request("http://x/", { method: "POST" }), { limit: 100 }))).toEqual({
      status: 415,
      code: "unsupported_media_type",
      message:
        "This endpoint accepts application/json only (got no Content-Type). Send the body with Content-Type: application/json.",
    });
  });

  it("a 20 MB body answers 413 with the limit from its Content-Length, before reading anything", async () => {
    const { request, pulled } = streamed(20 * MiB, 64 * 1024, {
      "content-type": "application/json",
      "content-length": String(20 * MiB),
    });
    expect(await refusal(readJson(request, { limit: PROMPT_JSON_LIMIT }))).toEqual({
      status: 413,
      code: "too_large",
      message:
        "The request body is 20971520 bytes; this endpoint accepts at most 1048576 bytes (1 MiB). Send a smaller body.",
    });
    expect(pulled()).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it("without a Content-Length, the body is counted and the stream cancelled at the limit (413)", async () => {
    const { request, pulled } = streamed(20 * MiB, 64 * 1024, { "content-type": "application/json" });
    expect(await refusal(readJson(request, { limit: PROMPT_JSON_LIMIT }))).toEqual({
      status: 413,
      code: "too_large",
      message:
        "The request body is larger than the limit; this endpoint accepts at most 1048576 bytes (1 MiB). Send a smaller body.",
    });
    expect(pulled()).toBeLessThan(PROMPT_JSON_LIMIT + 3 * 64 * 1024);
  });

  it("a lying Content-Length (smaller than the body) is caught by counting", async () => {
    const { request } = streamed(2 * MiB, 64 * 1024, {
      "content-type": "application/json",
      "content-length": "10",
    });
    expect((await refusal(readJson(request, { limit: PROMPT_JSON_LIMIT }))).status).toBe(413);
    const under = streamed(50, 10, { "content-type": "application/json", "content-length": "10" });
    expect(await refusal(readJson(under.request, { limit: PROMPT_JSON_LIMIT }))).toEqual({
      status: 400,
      code: "bad_request",
      message: "The request body is longer than its Content-Length (10 bytes); nothing was changed.",
    });
  });

  it("a body that ends before its Content-Length answers 400 incomplete_body, not 'not valid JSON'", async () => {
    const { request } = streamed(1000, 100, { "content-type": "application/json", "content-length": "5000" });
    expect(await refusal(readJson(request, { limit: PROMPT_JSON_LIMIT }))).toEqual({
      status: 400,
      code: "incomplete_body",
      message:
        "The request body ended after 1000 of the 5000 bytes its Content-Length announced; nothing was changed. Send the request again.",
    });
  });

  it("without a Content-Length, a 10 MiB route accepts at most 9 MiB (the runtime cuts such bodies near 10 MiB)", async () => {
    // `next start` delivered a 20 MiB chunked body to an edge route as its first 10,483,840 bytes, without an error.
    const { request } = streamed(10_483_840, 64 * 1024, { "content-type": "application/json" });
    expect(await refusal(readJson(request, { limit: RUNTIME_BODY_CAP }))).toEqual({
      status: 413,
      code: "too_large",
      message:
        "The request body is larger than the limit; this endpoint accepts at most 9437184 bytes (9 MiB) when sent without a Content-Length (10485760 bytes (10 MiB) with one). Send a smaller body.",
    });
    const sized = streamed(9 * MiB + 10, 64 * 1024, {
      "content-type": "application/octet-stream",
      "content-length": String(9 * MiB + 10),
    });
    expect((await readBody(sized.request, { limit: RUNTIME_BODY_CAP, types: [] })).byteLength).toBe(
      9 * MiB + 10,
    );
    expect(UNSIZED_BODY_LIMIT).toBe(9 * MiB);
  });

  it("invalid JSON under the limit stays 400; an empty body is 400 unless the route gives a default", async () => {
    expect(await refusal(readJson(json("{"), { limit: 100 }))).toEqual({
      status: 400,
      code: "bad_request",
      message: "The request body is not valid JSON",
    });
    expect(await refusal(readJson(json(""), { limit: 100 }))).toEqual({
      status: 400,
      code: "bad_request",
      message: "The request body is empty; send a JSON object",
    });
    expect(await readJson(json(""), { limit: 100, empty: {} })).toEqual({});
  });

  it("the 413 names what to do instead when the route says so", async () => {
    const request = json("x".repeat(200), { "content-type": "application/json", "content-length": "200" });
    expect((await refusal(readJson(request, { limit: 100, tooLargeHint: "Use the upload." }))).message).toBe(
      "The request body is 200 bytes; this endpoint accepts at most 100 bytes. Use the upload.",
    );
  });
});

describe("readBody / readForm", () => {
  it("accepts the listed raw types and returns the exact bytes", async () => {
    const bytes = await readBody(
      new Request("http://x/", {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: new Uint8Array([0, 1, 2, 255]),
      }),
      { limit: 4, types: ["application/octet-stream"] },
    );
    expect([...bytes]).toEqual([0, 1, 2, 255]);
  });

  it("counts a multipart body against its limit and parses it under the limit", async () => {
    const form = new FormData();
    form.append("file", new File(["a".repeat(5000)], "a.jsonl"));
    const big = new Request("http://x/", { method: "POST", body: form });
    expect((await refusal(readForm(big, { limit: 1000 }))).status).toBe(413);
    const small = new FormData();
    small.append("file", new File(["hello"], "a.jsonl"));
    const parsed = await readForm(new Request("http://x/", { method: "POST", body: small }), { limit: 1000 });
    expect(await (parsed.get("file") as File).text()).toBe("hello");
  });

  it("formats limits with their unit", () => {
    expect(formatLimit(1048576)).toBe("1048576 bytes (1 MiB)");
    expect(formatLimit(65536)).toBe("65536 bytes (64 KiB)");
    expect(formatLimit(1000)).toBe("1000 bytes");
  });
});
