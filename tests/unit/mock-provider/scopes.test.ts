/**
 * Mock scopes (tests/mock-provider/scope.ts): two tests that script different turns at the same time against one
 * mock each get their own turns, requests, gates and OpenAI item memory; the `default` scope is a scope like any
 * other; a key without the marker files under it.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_SCOPE,
  type MockProvider,
  mockProviderClient,
  mockScopeKey,
  scopeOfKey,
  startMockProvider,
} from "@/tests/mock-provider";

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

/** One Anthropic request with `apiKey`, read to the end: its text. */
async function askAnthropic(apiKey: string, prompt: string): Promise<string> {
  const model = createAnthropic({ baseURL: `${mock.url}/v1`, apiKey })("claude-sonnet-4-5");
  const result = streamText({ model, prompt });
  return result.text;
}

describe("scopeOfKey / mockScopeKey", () => {
  it("reads the id after the marker, in either provider's key shape", () => {
    expect(mockScopeKey("t-1", "anthropic")).toBe("sk-ant-mock-scope-t-1");
    expect(mockScopeKey("t-1", "openai")).toBe("sk-mock-scope-t-1");
    expect(scopeOfKey("sk-ant-mock-scope-t-1")).toBe("t-1");
    expect(scopeOfKey("sk-ant-LEAKTEST-workspace-mock-scope-w_9")).toBe("w_9");
    expect(scopeOfKey("sk-ant-plain")).toBe(DEFAULT_SCOPE);
    expect(scopeOfKey(undefined)).toBe(DEFAULT_SCOPE);
    expect(scopeOfKey("sk-mock-scope-has space")).toBe(DEFAULT_SCOPE);
    expect(() => mockScopeKey("a/b")).toThrow('not a mock scope id: "a/b"');
  });
});

describe("two tests at the same time", () => {
  it.concurrent("each gets its own turns and its own request log", async () => {
    const a = mockProviderClient(mock.url, "test-a");
    const b = mockProviderClient(mock.url, "test-b");
    await Promise.all([
      a.script({ text: "A one" }, { text: "A two" }),
      b.script({ text: "B one" }, { text: "B two" }),
    ]);
    // Interleaved: A, B, B, A: each scope's queue is consumed in its own order.
    const [a1, b1] = await Promise.all([
      askAnthropic(mockScopeKey("test-a", "anthropic"), "a first"),
      askAnthropic(mockScopeKey("test-b", "anthropic"), "b first"),
    ]);
    const b2 = await askAnthropic(mockScopeKey("test-b", "anthropic"), "b second");
    const a2 = await askAnthropic(mockScopeKey("test-a", "anthropic"), "a second");
    expect([a1, a2, b1, b2]).toEqual(["A one", "A two", "B one", "B two"]);

    const promptsOf = async (client: typeof a) =>
      (await client.requests()).map((r) => [
        r.seq,
        (r.body as { messages: { content: { text: string }[] }[] }).messages[0].content[0].text,
      ]);
    expect(await promptsOf(a)).toEqual([
      [1, "a first"],
      [2, "a second"],
    ]);
    expect(await promptsOf(b)).toEqual([
      [1, "b first"],
      [2, "b second"],
    ]);
    expect(await a.pending()).toBe(0);
    expect(mock.requests).toEqual([]);
  });

  it.concurrent("a gate released in one scope does not open the other's", async () => {
    const c = mockProviderClient(mock.url, "test-c");
    const d = mockProviderClient(mock.url, "test-d");
    await c.script({ text: ["C held", " then done"], holdUntilReleased: "gate" });
    await d.script({ text: ["D held", " then done"], holdUntilReleased: "gate" });
    const cText = askAnthropic(mockScopeKey("test-c", "anthropic"), "c");
    const dText = askAnthropic(mockScopeKey("test-d", "anthropic"), "d");
    let dDone = false;
    void dText.then(() => {
      dDone = true;
    });
    await c.release("gate");
    expect(await cText).toBe("C held then done");
    // Both requests arrived, and D's stream reached its gate (its first delta written) and stays there: a stream
    // whose gate is open writes the rest of its frames in the same turn, so only a held one shows 1 delta.
    await expect
      .poll(async () => (await d.requests())[0]?.timing?.deltas ?? 0, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(1);
    const [held] = await d.requests();
    expect([held.timing?.deltas, held.timing?.endedAt, dDone]).toEqual([1, undefined, false]);
    await d.release("gate");
    expect(await dText).toBe("D held then done");
  });

  it.concurrent("OpenAI items answered in one scope are unknown in another", async () => {
    const openaiIn = (scope: string) =>
      createOpenAI({ baseURL: `${mock.url}/v1`, apiKey: mockScopeKey(scope, "openai") }).responses("gpt-5");
    const e = mockProviderClient(mock.url, "test-e");
    await e.script({ text: "E answered" });
    const first = streamText({ model: openaiIn("test-e"), prompt: "e" });
    expect(await first.text).toBe("E answered");
    const responseId = (await first.providerMetadata)?.openai?.responseId as string;
    expect(responseId).toMatch(/^resp_/);
    // The same previous_response_id is accepted in its own scope and refused (400) in another.
    const previous = (scope: string) =>
      fetch(`${mock.url}/v1/responses`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${mockScopeKey(scope)}` },
        body: JSON.stringify({ model: "gpt-5", stream: true, previous_response_id: responseId, input: [] }),
      });
    expect((await previous("test-e")).status).toBe(200);
    const other = await previous("test-f");
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain(responseId);
  });

  it("resetting a scope forgets it and leaves the others", async () => {
    const g = mockProviderClient(mock.url, "test-g");
    const h = mockProviderClient(mock.url, "test-h");
    await g.script({ text: "G" });
    await h.script({ text: "H" });
    await g.reset();
    expect(await g.pending()).toBe(0);
    expect(await h.pending()).toBe(1);
    expect(await askAnthropic(mockScopeKey("test-g", "anthropic"), "g")).toBe("(mock) no scripted turn");
    expect(await askAnthropic(mockScopeKey("test-h", "anthropic"), "h")).toBe("H");
  });

  it("the control API refuses a scope id it cannot hold", async () => {
    const res = await fetch(`${mock.url}/__mock/pending?scope=${encodeURIComponent("a b")}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'not a scope id: "a b"' });
  });
});
