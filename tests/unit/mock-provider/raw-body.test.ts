import { afterAll, beforeAll, expect, it } from "vitest";
import { type MockProvider, mockProviderClient, startMockProvider } from "@/tests/mock-provider";

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

it("records a provider request's body exactly as received (rawBody), beside the parsed body", async () => {
  // Spacing and key order a re-serialisation would change: rawBody keeps the bytes.
  const raw = '{"model":"gpt-5", "stream":true,"input":[{"role":"user","content":"h\\u00e9"}]}';
  const res = await fetch(`${mock.url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw,
  });
  await res.text();
  const [request] = await mockProviderClient(mock.url).requests();
  expect(request?.rawBody).toBe(raw);
  expect(request?.body).toEqual({ model: "gpt-5", stream: true, input: [{ role: "user", content: "hé" }] });
});
