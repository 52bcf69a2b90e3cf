/**
 * Runs that outlive the tab (issue 12, must-show 1), end to end in Chromium against the mock provider: a reload
 * in the middle of a run whose tool call takes seconds does not stop it: the reloaded page shows what happened
 * meanwhile, then streams live to the final answer; a second tab attached to the same run streams the same events
 * over one long request (no polling in its network log), and Abort from that tab ends the run for both.
 */
import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, expectIdle, transcript, uniqueName } from "./helpers";

const README = "# Demo\n\nHello from the demo project.\n";
const indicator = (page: Page) => page.getByRole("status", { name: "Agent is running" });
const tool = (page: Page) => page.getByTestId("tool-call");

/** Every message of the transcript in order, as `testid: text`. */
const articles = (page: Page) =>
  page
    .getByRole("log", { name: "Conversation" })
    .locator("article")
    .evaluateAll((nodes) =>
      nodes.map((n) => `${n.getAttribute("data-testid")}: ${(n.textContent ?? "").trim()}`),
    );

/** The session's requests a page makes (its own `GET /api/sessions/:id` and the run's event streams). */
function recordSessionRequests(page: Page): { at: number; method: string; path: string }[] {
  const seen: { at: number; method: string; path: string }[] = [];
  page.on("request", (r: Request) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/api/sessions/")) seen.push({ at: Date.now(), method: r.method(), path });
  });
  return seen;
}

test("a reload mid-run: the run goes on, the page shows what happened and streams to the answer", async ({
  page,
  mock,
  openProject,
}) => {
  await mock.script(
    {
      text: ["Running the slow command.", " Now."],
      holdUntilReleased: "first-gate",
      toolCalls: [{ id: "toolu_slow_1", name: "bash", input: { command: "sleep 1 && echo slept well" } }],
    },
    { text: ["The command", " slept and finished."], holdUntilReleased: "final-gate" },
  );
  await openProject(page, uniqueName("reattach"), { "README.md": README });
  await composer(page).fill("Run the slow command.");
  await composer(page).press("Enter");
  // The first answer is held after its first delta: the run is live until the test lets it go on.
  await expect(page.getByTestId("message-assistant").first()).toHaveText("Running the slow command.");
  await expect(indicator(page)).toBeVisible();

  // Mid-run: reload. Only the viewer goes away.
  await page.reload();
  await expect(page.getByTestId("message-user")).toHaveText(["Run the slow command."]);
  await expect(indicator(page)).toBeVisible();
  // This tab started the run (it remembers across the reload): not "another tab".
  await expect(indicator(page)).not.toContainText("started elsewhere");
  await expect(page.getByText("still working on what this tab sent before it was reloaded")).toBeVisible();
  await expect(page.getByTestId("message-assistant").first()).toContainText("Running the slow command.");
  // The run goes on after the reload: the answer ends, its tool call runs and finishes, and the final answer
  // streams live (held after its first delta).
  await mock.release("first-gate");
  await expect(page.getByTestId("message-assistant").first()).toContainText("Running the slow command. Now.");
  await expect(tool(page)).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("message-assistant").last()).toHaveText("The command");
  await expect(page.getByRole("button", { name: "Abort", exact: true })).toBeVisible();
  await mock.release("final-gate");
  await expect(page.getByTestId("message-assistant").last()).toHaveText("The command slept and finished.");
  await expectIdle(page);
  await expect(indicator(page)).toHaveCount(0);
  await tool(page).locator("summary").first().click();
  await expect(tool(page)).toContainText("slept well");

  const live = await transcript(page);
  expect(live).toEqual([
    "user: Run the slow command.",
    expect.stringMatching(/^assistant: Running the slow command\. Now\./),
    "assistant: The command slept and finished.",
  ]);
  // Both model calls were made and none was cut by the reload.
  const requests = await mock.requests();
  expect(requests.map((r) => [r.path, r.aborted ?? false])).toEqual([
    ["/v1/messages", false],
    ["/v1/messages", false],
  ]);
  // What is stored is what was streamed.
  await page.reload();
  await expect(page.getByTestId("message-user")).toHaveText(["Run the slow command."]);
  expect(await transcript(page)).toEqual(live);
  await expect(indicator(page)).toHaveCount(0);
});

test("a second tab streams the same run without polling; Abort there ends it for both", async ({
  page,
  context,
  mock,
  openProject,
  shot,
}) => {
  // The pages' timers run on Playwright's clock (as real time flows), so a poll of the next seconds can be fired at
  // once below instead of waited for.
  await context.clock.install();
  await mock.script({
    text: ["Step one.", " Step two."],
    holdUntilReleased: "tab-gate",
    toolCalls: [{ id: "toolu_long_1", name: "bash", input: { command: "sleep 30" } }],
  });
  await openProject(page, uniqueName("two-tabs"), { "README.md": README });
  await composer(page).fill("Work for a while.");
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-assistant").last()).toHaveText("Step one.");

  const other = await context.newPage();
  const requests = recordSessionRequests(other);
  await other.goto(page.url());
  await expect(other.getByTestId("message-user")).toHaveText(["Work for a while."]);
  // Replayed from the run's log: what the first tab shows.
  await expect(other.getByTestId("message-assistant").last()).toHaveText("Step one.");
  await expect(indicator(other)).toBeVisible();
  await expect(indicator(other)).toContainText("started elsewhere");
  await expect(
    other.getByText("The agent is working on this session in another tab.", { exact: false }),
  ).toBeVisible();

  // Live events reach both tabs.
  await mock.release("tab-gate");
  for (const p of [page, other]) {
    await expect(p.getByTestId("message-assistant").last()).toContainText("Step one. Step two.");
    await expect(tool(p)).toHaveAttribute("data-status", "running");
  }
  // The same conversation, message for message, in the same order.
  expect(await articles(other)).toEqual(await articles(page));
  await shot(other, "second-tab-running");
  await shot(page, "first-tab-running");

  // While the tool sleeps, the second tab makes no request at all: one long event stream, no polling. Ten seconds of
  // its timers fire at once; a request any of them made is seen before the page's own later fetch of /api/me.
  const quietFrom = Date.now();
  await context.clock.runFor(10_000);
  await Promise.all([
    other.waitForRequest((r) => new URL(r.url()).pathname === "/api/me"),
    other.evaluate(() => fetch("/api/me").then((r) => r.status)),
  ]);
  expect(requests.filter((r) => r.at >= quietFrom)).toEqual([]);
  const events = requests.filter((r) => r.path.endsWith("/events"));
  expect(events.map((r) => r.method)).toEqual(["GET"]);
  expect(events[0].path).toMatch(/^\/api\/sessions\/[0-9a-f-]{36}\/runs\/[0-9a-f-]{36}\/events$/);

  // Abort from the tab that did not start the run: both tabs end the run view.
  await other.getByRole("button", { name: "Abort", exact: true }).click();
  for (const p of [other, page]) {
    await expectIdle(p);
    await expect(indicator(p)).toHaveCount(0);
    await expect(tool(p)).toHaveAttribute("data-status", "error");
    await expect(p.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  }
  await expect(
    other.getByText("The agent is working on this session in another tab.", { exact: false }),
  ).toHaveCount(0);
  // The model was called once: the abort stopped the run, nothing went on.
  expect(await mock.requests()).toHaveLength(1);
  // Still one event stream for the whole run in the second tab.
  expect(requests.filter((r) => r.path.endsWith("/events"))).toHaveLength(1);
});

/**
 * In the page: the POST answer of the next prompt errors like a dropped connection once its `dropAfter` event has
 * arrived, and the first `failAttaches` attach requests fail like an unreachable server; every attach is recorded.
 */
function dropStreams(options: { dropAfter: string; failAttaches: number }) {
  const w = window as unknown as {
    __attaches: { url: string; lastEventId: string | null; failed: boolean }[];
    __failAttaches: number;
  };
  w.__attaches = [];
  w.__failAttaches = options.failAttaches;
  const original = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (/\/runs\/[^/]+\/events/.test(url)) {
      const headers = new Headers(init?.headers);
      const failed = w.__failAttaches > 0;
      w.__attaches.push({ url, lastEventId: headers.get("last-event-id"), failed });
      if (failed) {
        w.__failAttaches--;
        throw new TypeError("Failed to fetch");
      }
      return original(input, init);
    }
    const res = await original(input, init);
    if (!url.endsWith("/prompt") || !res.body || !res.headers.get("content-type")?.includes("event-stream"))
      return res;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    let drop = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (drop) {
          void reader.cancel();
          controller.error(new TypeError("network error"));
          return;
        }
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += decoder.decode(value, { stream: true });
        controller.enqueue(value);
        // Error on the next read (erroring now would discard the chunk just queued).
        if (seen.includes(`event: ${options.dropAfter}\n`)) drop = true;
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

test("the starting tab's stream drops: it re-attaches with Last-Event-ID, then offers Reconnect", async ({
  page,
  mock,
  openProject,
}) => {
  await mock.script(
    {
      text: "Sleeping briefly.",
      toolCalls: [{ id: "toolu_nap_1", name: "bash", input: { command: "sleep 2 && echo awake" } }],
    },
    { text: ["Awake", " now."] },
  );
  await page.addInitScript(dropStreams, { dropAfter: "tool_execution_start", failAttaches: 4 });
  await openProject(page, uniqueName("drop"), { "README.md": README });
  await composer(page).fill("Take a nap.");
  await composer(page).press("Enter");
  await expect(page.getByText("Connection to the agent's run dropped")).toBeVisible();
  // 0.5 + 1 + 2 + 4 s of failed attempts, then the drop is shown with what to do.
  const lostNotice = page.getByRole("alert").filter({ hasText: "Lost the connection to the agent's run" });
  await expect(lostNotice).toBeVisible();
  await expect(lostNotice).toContainText("Failed to fetch");
  // The prompt was stored before the drop: the composer does not get it back, the run view stays.
  await expect(composer(page)).toHaveValue("");
  await expect(indicator(page)).toBeVisible();
  await expect(page.getByTestId("message-user")).toHaveText(["Take a nap."]);

  await lostNotice.getByRole("button", { name: "Reconnect" }).click();
  await expect(page.getByTestId("message-assistant").last()).toHaveText("Awake now.");
  await expectIdle(page);
  await expect(lostNotice).toHaveCount(0);
  await expect(indicator(page)).toHaveCount(0);
  await expect(tool(page)).toHaveAttribute("data-status", "done");
  expect(await transcript(page)).toEqual([
    "user: Take a nap.",
    expect.stringMatching(/^assistant: Sleeping briefly\./),
    "assistant: Awake now.",
  ]);

  // Every attempt asked for the events after the last one seen, by `Last-Event-ID` and `?after=`.
  const attaches = await page.evaluate(
    () =>
      (window as unknown as { __attaches: { url: string; lastEventId: string | null; failed: boolean }[] })
        .__attaches,
  );
  expect(attaches.map((a) => a.failed)).toEqual([true, true, true, true, false]);
  const cursor = attaches[0].lastEventId;
  expect(Number(cursor)).toBeGreaterThan(1);
  for (const a of attaches) {
    expect(a.lastEventId).toBe(cursor);
    expect(new URL(a.url, "http://x").searchParams.get("after")).toBe(cursor);
  }
  expect((await mock.requests()).map((r) => r.aborted ?? false)).toEqual([false, false]);
});
