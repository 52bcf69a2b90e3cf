import { afterEach, describe, expect, it } from "vitest";
import { ApiError, apiFetch, apiJson, jsonInit } from "@/components/http/api-fetch";

const realFetch = globalThis.fetch;

/** Replaces `fetch` for one test with `impl`, recording the calls. */
function stubFetch(impl: (url: string, init?: RequestInit) => Promise<Response>) {
  const calls: { url: string; init?: RequestInit }[] = [];
  globalThis.fetch = ((url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return impl(url, init);
  }) as typeof fetch;
  return calls;
}

afterEach(() => {
  globalThis.fetch = realFetch;
});

/** What `promise` rejected with (fails when it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

describe("apiJson", () => {
  it("parses an ok JSON answer and sends the request as given", async () => {
    const calls = stubFetch(async () => Response.json({ project: { id: "p1", name: "Demo" } }));
    const init = jsonInit("POST", { name: "Demo" });
    expect(await apiJson("/api/projects", init)).toEqual({ project: { id: "p1", name: "Demo" } });
    expect(calls).toEqual([{ url: "/api/projects", init }]);
    expect(init).toEqual({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name":"Demo"}',
      signal: undefined,
    });
  });

  it("turns a 404 with the documented error body into its ApiError", async () => {
    stubFetch(async () =>
      Response.json({ error: { code: "not_found", message: "No such project." } }, { status: 404 }),
    );
    const err = await rejection(apiJson("/api/projects/p1"));
    expect(err).toBeInstanceOf(ApiError);
    const apiErr = err as ApiError;
    expect([apiErr.status, apiErr.code, apiErr.message, apiErr.name]).toEqual([
      404,
      "not_found",
      "No such project.",
      "ApiError",
    ]);
  });

  it("turns a non-JSON 502 into http_502 with the status text", async () => {
    stubFetch(
      async () => new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" }),
    );
    const err = (await rejection(apiJson("/api/projects"))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.code, err.message]).toEqual([502, "http_502", "Bad Gateway"]);
  });

  it("turns a transport failure into network_error with status 0 and the failure's message", async () => {
    stubFetch(async () => {
      throw new TypeError("Failed to fetch");
    });
    const err = (await rejection(apiJson("/api/projects"))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.code, err.message]).toEqual([0, "network_error", "Failed to fetch"]);
  });

  it("rethrows an AbortError unchanged", async () => {
    const abort = new DOMException("The operation was aborted.", "AbortError");
    stubFetch(async () => {
      throw abort;
    });
    expect(await rejection(apiJson("/api/projects", { signal: AbortSignal.abort() }))).toBe(abort);
  });
});

describe("apiFetch", () => {
  it("resolves the ok response unread", async () => {
    stubFetch(async () => new Response("data: 1\n\n", { headers: { "content-type": "text/event-stream" } }));
    const res = await apiFetch("/api/sessions/s1/prompt");
    expect([res.status, res.bodyUsed, await res.text()]).toEqual([200, false, "data: 1\n\n"]);
  });

  it("throws what toError builds for a non-2xx answer", async () => {
    stubFetch(async () => Response.json({ error: { message: "Too large" } }, { status: 413 }));
    const err = await rejection(
      apiFetch("/api/projects/p1/archive", undefined, async (res) => new Error(`refused ${res.status}`)),
    );
    expect(err).toEqual(new Error("refused 413"));
    expect(err).not.toBeInstanceOf(ApiError);
  });
});
