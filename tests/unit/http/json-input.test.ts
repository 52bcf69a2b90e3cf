/**
 * lib/http/body.ts `readJsonInput`: what is about the request (415, 413, a body shorter than its Content-Length) is
 * refused while reading, before the route authorises; what the body says (empty, not JSON, too deep, refused by the
 * schema) only when `parse` is called, with the errors and messages `readJson` + `Schema.parse` give.
 */
import { describe, expect, it } from "vitest";
import { ZodError, z } from "zod";
import { readJson, readJsonInput } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";

const json = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  new Request("http://x/", { method: "POST", headers, body });

/** A body of `total` bytes streamed in one chunk, with the given headers (a Content-Length may lie). */
function streamed(total: number, headers: Record<string, string>): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(total).fill(120));
      controller.close();
    },
  });
  return new Request("http://x/", { method: "POST", headers, body, duplex: "half" } as RequestInit);
}

/** The ApiError `run` throws, as `{ status, code, message }`. */
async function refusal(run: () => unknown): Promise<{ status: number; code: string; message: string }> {
  const error = await (async () => run())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const { status, code, message } = error as ApiError;
  return { status, code, message };
}

const Body = z.object({ name: z.string(), files: z.boolean().default(true) });

describe("readJsonInput", () => {
  it("refuses the request itself while reading: 415, 413, an incomplete body", async () => {
    expect(
      await refusal(() => readJsonInput(json("{}", { "content-type": "text/plain" }), { limit: 100 })),
    ).toEqual({
      status: 415,
      code: "unsupported_media_type",
      message:
        "This endpoint accepts application/json only (got Content-Type: text/plain). Send the body with Content-Type: application/json.",
    });
    const big = json("x".repeat(200), { "content-type": "application/json", "content-length": "200" });
    expect(await refusal(() => readJsonInput(big, { limit: 100, tooLargeHint: "Use the upload." }))).toEqual({
      status: 413,
      code: "too_large",
      message: "The request body is 200 bytes; this endpoint accepts at most 100 bytes. Use the upload.",
    });
    const cut = streamed(10, { "content-type": "application/json", "content-length": "50" });
    expect(await refusal(() => readJsonInput(cut, { limit: 100 }))).toEqual({
      status: 400,
      code: "incomplete_body",
      message:
        "The request body ended after 10 of the 50 bytes its Content-Length announced; nothing was changed. Send the request again.",
    });
  });

  it("reads a bad body without refusing it; parse refuses it as readJson does, message for message", async () => {
    const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
    for (const text of ["{", "", deep]) {
      const input = await readJsonInput(json(text), { limit: 1000 });
      const now = await refusal(() => input.parse(Body));
      expect(now).toEqual(await refusal(() => readJson(json(text), { limit: 1000 })));
    }
    const notJson = await readJsonInput(json("{"), { limit: 1000 });
    expect(await refusal(() => notJson.parse(Body))).toEqual({
      status: 400,
      code: "bad_request",
      message: "The request body is not valid JSON",
    });
    const empty = await readJsonInput(json(""), { limit: 1000 });
    expect(await refusal(() => empty.parse(Body))).toEqual({
      status: 400,
      code: "bad_request",
      message: "The request body is empty; send a JSON object",
    });
    const tooDeep = await readJsonInput(json(deep), { limit: 1000 });
    expect(await refusal(() => tooDeep.parse(Body))).toEqual({
      status: 400,
      code: "too_deep",
      message:
        "The request body nests JSON more than 64 levels deep (at character 65); the limit is 64. Send a flatter value; nothing was changed.",
    });
  });

  it("parse validates with the schema: its output, or the ZodError Schema.parse throws", async () => {
    const ok = await readJsonInput(json('{"name":"a"}'), { limit: 1000 });
    expect(ok.parse(Body)).toEqual({ name: "a", files: true });
    const array = await readJsonInput(json("[]"), { limit: 1000 });
    let thrown: unknown;
    try {
      array.parse(Body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ZodError);
    expect((thrown as ZodError).issues).toEqual(Body.safeParse([]).error?.issues);
  });

  it("an empty body stands for options.empty, validated by the schema", async () => {
    const input = await readJsonInput(json(""), { limit: 1000, empty: { name: "default" } });
    expect(input.parse(Body)).toEqual({ name: "default", files: true });
    const none = await readJsonInput(json("  \n"), { limit: 1000, empty: {} });
    expect(none.parse(z.object({ focus: z.string().optional() }))).toEqual({});
  });
});
