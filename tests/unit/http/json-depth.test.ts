/**
 * lib/text/json-depth.ts and readJson's nesting limit (adversarial finding F6): a body nested more than 64 levels
 * is refused (400 too_deep, naming the limit) before JSON.parse; strings and escapes do not count as nesting; a
 * 9.8 MB body of 4.9 million nested arrays is refused without JSON.parse ever seeing it (parsing millions of
 * levels held the event loop for seconds) and a legitimate 9.8 MB string is parsed once. How long each holds the
 * event loop is measured by `npm run bench` (section hostile: the file PUT of 4.9 million nested arrays).
 */
import { describe, expect, it, vi } from "vitest";
import { FILE_JSON_LIMIT, readJson } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { jsonDepthOverflow, jsonValueTooDeep, MAX_JSON_DEPTH } from "@/lib/text/json-depth";

const json = (body: string) =>
  new Request("http://x/", {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
    body,
  });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return { status: error.status, code: error.code, message: error.message };
}

describe("jsonDepthOverflow", () => {
  it("finds the bracket that opens level limit + 1, outside strings only", () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonDepthOverflow("[[]]", 2)).toBe(-1);
    expect(jsonDepthOverflow("[[[]]]", 2)).toBe(2);
    expect(jsonDepthOverflow('{"a":{"b":[1]}}', 2)).toBe(10);
    expect(jsonDepthOverflow('[["[[[[", "\\"[[[", "\\\\"], [[]]]', 2)).toBe(27);
    expect(jsonDepthOverflow('["\\\\\\"[[["]', 1)).toBe(-1);
    expect(jsonDepthOverflow('["unterminated [[[', 1)).toBe(-1);
    expect(jsonDepthOverflow("[][][][]", 1)).toBe(-1);
    expect(jsonDepthOverflow("", 1)).toBe(-1);
  });
});

describe("jsonValueTooDeep", () => {
  it("counts arrays and objects as levels without recursion (a 100,000-level value is checked)", () => {
    expect(jsonValueTooDeep({ a: [1, { b: "x" }] }, 3)).toBe(false);
    expect(jsonValueTooDeep({ a: [1, { b: [] }] }, 3)).toBe(true);
    expect(jsonValueTooDeep("[[[[", 1)).toBe(false);
    expect(jsonValueTooDeep(null, 0)).toBe(false);
    let deep: unknown[] = [];
    for (let i = 1; i < 100_000; i++) deep = [deep];
    expect(jsonValueTooDeep(deep)).toBe(true);
    expect(jsonValueTooDeep(deep, 100_000)).toBe(false);
  });
});

describe("readJson nesting limit", () => {
  it("64 levels parse; 65 levels answer 400 too_deep with the limit", async () => {
    expect(await readJson(json(`${"[".repeat(64)}${"]".repeat(64)}`), { limit: 1024 })).toHaveLength(1);
    expect(
      await refusal(readJson(json(`{"a":${"[".repeat(64)}${"]".repeat(64)}}`), { limit: 1024 })),
    ).toEqual({
      status: 400,
      code: "too_deep",
      message:
        "The request body nests JSON more than 64 levels deep (at character 69); the limit is 64. Send a flatter value; nothing was changed.",
    });
  });

  it("a 9.8 MB body of 4.9 million nested arrays is refused before JSON.parse; a 9.8 MB string is parsed once", async () => {
    const levels = 4_900_000;
    const deep = `${"[".repeat(levels)}${"]".repeat(levels)}`;
    const text = JSON.stringify({ path: "a.txt", content: "x[{}".repeat(2_450_000) });
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(await refusal(readJson(json(deep), { limit: FILE_JSON_LIMIT }))).toEqual({
        status: 400,
        code: "too_deep",
        message:
          "The request body nests JSON more than 64 levels deep (at character 65); the limit is 64. Send a flatter value; nothing was changed.",
      });
      const value = (await readJson(json(text), { limit: FILE_JSON_LIMIT })) as { content: string };
      expect(value.content.length).toBe(9_800_000);
      // What JSON.parse got of the two bodies: only the string's, once.
      const parsed = parse.mock.calls.map(([arg]) =>
        arg === deep ? "nested" : arg === text ? "string" : null,
      );
      expect(parsed.filter((which) => which !== null)).toEqual(["string"]);
    } finally {
      parse.mockRestore();
    }
  }, 60_000);
});
