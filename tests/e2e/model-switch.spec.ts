/**
 * Switching models mid-session, end to end in Chromium: a first prompt on Claude (a thinking block with a
 * signature and a tool call), then the selector switches to GPT-5 and the next prompt goes to the OpenAI
 * Responses endpoint with the whole conversation, in a form the mock's validator accepts: no Anthropic
 * thinking or signature, and every function_call answered by a function_call_output with the same call id.
 */

import { expect, test } from "./fixtures";
import { composer, expectIdle, transcript, uniqueName } from "./helpers";

const SIGNATURE = "sig-anthropic-e2e-1";

interface ResponsesItem {
  type?: string;
  role?: string;
  call_id?: string;
  name?: string;
  output?: unknown;
  content?: string | { type: string; text?: string }[];
}

const itemText = (item: ResponsesItem) =>
  typeof item.content === "string" ? item.content : (item.content ?? []).map((c) => c.text ?? "").join("");

test("an Anthropic session continues on an OpenAI model", async ({ page, mock, openProject }) => {
  await mock.script(
    {
      thinking: { text: ["I should ", "read the README."], signature: SIGNATURE },
      text: "Reading it.",
      toolCalls: [{ id: "toolu_switch_1", name: "read", input: { path: "README.md" } }],
    },
    { text: "The README says hello." },
    { text: "GPT here: the README greets you." },
  );
  await openProject(page, uniqueName("switch"), { "README.md": "# Demo\n\nHello.\n" });

  const model = page.getByLabel("Model");
  await expect(model).toHaveValue("anthropic/claude-sonnet-4-5");
  await composer(page).fill("Read the README.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("The README says hello.");
  await expectIdle(page);

  await model.selectOption("openai/gpt-5");
  await expect(model).toHaveValue("openai/gpt-5");
  await composer(page).fill("Summarise it again.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText(
    "GPT here: the README greets you.",
  );
  await expectIdle(page);
  // The choice holds after the run (a refreshed session list does not switch it back).
  await expect(model).toHaveValue("openai/gpt-5");
  expect(await transcript(page)).toEqual([
    "user: Read the README.",
    expect.stringMatching(/^assistant: ThinkingI should read the README\.Reading it\.read/),
    "assistant: The README says hello.",
    "user: Summarise it again.",
    "assistant: GPT here: the README greets you.",
  ]);

  const requests = await mock.requests();
  expect(requests.map((r) => r.path)).toEqual(["/v1/messages", "/v1/messages", "/v1/responses"]);
  for (const r of requests) expect(r.validationError ?? null).toBeNull();
  expect(requests.map((r) => r.status)).toEqual([200, 200, 200]);

  const body = requests[2].body as { model: string; input: ResponsesItem[] };
  expect(body.model).toBe("gpt-5");
  const raw = JSON.stringify(body);
  expect(raw).not.toContain(SIGNATURE);
  expect(raw).not.toMatch(/"type":"(thinking|redacted_thinking|reasoning)"/);
  expect(body.input.filter((i) => i.type === "reasoning")).toEqual([]);

  const calls = body.input.filter((i) => i.type === "function_call");
  const outputs = body.input.filter((i) => i.type === "function_call_output");
  expect(calls).toHaveLength(1);
  expect(outputs).toHaveLength(1);
  expect(calls[0].name).toBe("read");
  expect(typeof calls[0].call_id).toBe("string");
  expect(outputs[0].call_id).toBe(calls[0].call_id);
  expect(body.input.indexOf(outputs[0])).toBeGreaterThan(body.input.indexOf(calls[0]));
  expect(JSON.stringify(outputs[0].output)).toContain("Hello.");

  // The conversation in order: the first prompt, the tool round trip, Claude's answer, the new prompt.
  const texts = body.input.filter((i) => i.role === "user" || i.role === "assistant").map(itemText);
  expect(texts.at(-1)).toBe("Summarise it again.");
  expect(texts).toContain("The README says hello.");
  expect(texts).toContain("Read the README.");
});
