/** Shared steps of the chat specs: the composer, the transcript, the provider's requests; the import through the UI. */
import { expect, type Locator, type Page } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import type { RecordedRequest } from "../mock-provider";

/**
 * Imports `files` as a project named `name` by uploading a zip on the home page's import form, and opens it; resolves
 * once its chat is ready. Only specs about the import itself use this: others make their project through the API
 * (the `openProject` fixture of ./fixtures.ts).
 */
export async function importZipThroughUi(
  page: Page,
  name: string,
  files: Record<string, string>,
): Promise<void> {
  const zip = zipSync(
    Object.fromEntries(Object.entries(files).map(([path, text]) => [`${name}/${path}`, strToU8(text)])),
  );
  await page.goto("/");
  await page.getByLabel("Archive").setInputFiles({
    name: `${name}.zip`,
    mimeType: "application/zip",
    buffer: Buffer.from(zip),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await page.getByRole("link", { name: new RegExp(`^Open ${name}$`) }).click();
  await expect(page.getByRole("region", { name: "Context", exact: true })).toContainText("in effect");
  await expect(page.getByLabel("Message")).toBeEnabled();
}

/** A project name unique on the server (the e2e database lives as long as the stack). */
export const uniqueName = (base: string) =>
  `${base}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

export const composer = (page: Page): Locator => page.getByRole("textbox", { name: "Message", exact: true });
export const queuedItems = (page: Page): Locator =>
  page.getByRole("list", { name: "Queued messages" }).getByRole("listitem");

/** The run is over: the composer offers Send again (no Abort, no Steer). */
export async function expectIdle(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Abort", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Steer", exact: true })).toHaveCount(0);
}

/** The user and assistant messages of the transcript in order, as `role: text` lines. */
export async function transcript(page: Page): Promise<string[]> {
  const articles = page.getByRole("log", { name: "Conversation" }).locator("article");
  return articles.evaluateAll((nodes) =>
    nodes
      .map((n) => ({ id: n.getAttribute("data-testid") ?? "", text: (n.textContent ?? "").trim() }))
      .filter((a) => a.id === "message-user" || a.id === "message-assistant")
      .map((a) => `${a.id === "message-user" ? "user" : "assistant"}: ${a.text}`),
  );
}

export interface AnthropicBlock {
  type: string;
  text?: string;
  id?: string;
  tool_use_id?: string;
  thinking?: string;
  signature?: string;
}
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | AnthropicBlock[];
}

export const blocksOf = (m: AnthropicMessage): AnthropicBlock[] =>
  typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;

/** Anthropic requests received by the mock, in order. */
export function anthropicRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.path === "/v1/messages");
}

export const messagesOf = (r: RecordedRequest): AnthropicMessage[] =>
  (r.body as { messages: AnthropicMessage[] }).messages;
