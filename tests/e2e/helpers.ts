/** Shared steps of the chat specs: the composer, the transcript, the provider's requests. */
import { expect, type Locator, type Page } from "@playwright/test";
import type { RecordedRequest } from "../mock-provider";

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

/**
 * `/api/projects/<id><rest>` for the working tree of the session open in `page`'s IDE (the one it remembers in
 * localStorage, as components/chat/use-sessions.ts does): each session has its own files, so a spec reading what the
 * IDE shows names it, as the IDE does (components/http/worktree.ts).
 */
export async function sessionFilesUrl(page: Page, projectId: string, rest: string): Promise<string> {
  const session = await page.evaluate(
    (key) => window.localStorage.getItem(key),
    `strata.session.${projectId}`,
  );
  const url = `/api/projects/${projectId}${rest}`;
  if (!session) throw new Error(`no session open in the IDE for project ${projectId}`);
  return `${url}${url.includes("?") ? "&" : "?"}session=${session}`;
}
