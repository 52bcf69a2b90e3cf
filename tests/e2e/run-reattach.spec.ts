/**
 * Runs that outlive the tab (issue 12, must-show 1), end to end in Chromium against the mock provider: a reload
 * in the middle of a run whose tool call takes seconds does not stop it: the reloaded page shows what happened
 * meanwhile, then streams live to the final answer; a second tab attached to the same run streams the same events
 * over one long request (no polling in its network log), and Abort from that tab ends the run for both.
 */
import { expect, type Page, type Request, test } from "@playwright/test";
import { mockProviderClient } from "../mock-provider";
import { composer, expectIdle, openZipProject, transcript, uniqueName } from "./helpers";
import { E2E_MOCK_URL } from "./ports";

const mock = mockProviderClient(E2E_MOCK_URL);
const README = "# Demo\n\nHello from the demo project.\n";
const indicator = (page: Page) => page.getByRole("status", { name: "Agent is running" });
const tool = (page: Page) => page.getByTestId("tool-call");

test.beforeEach(async () => {
  await mock.reset();
});

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
}) => {
  await mock.script(
    {
      text: "Running the slow command.",
      toolCalls: [{ id: "toolu_slow_1", name: "bash", input: { command: "sleep 3 && echo slept well" } }],
    },
    { text: ["The command", " slept and finished."], holdUntilReleased: "final-gate" },
  );
  await openZipProject(page, uniqueName("reattach"), { "README.md": README });
  await composer(page).fill("Run the slow command.");
  await composer(page).press("Enter");
  await expect(tool(page)).toHaveAttribute("data-status", "running");
  await expect(indicator(page)).toBeVisible();

  // Mid-run (the tool sleeps for 3 s): reload. Only the viewer goes away.
  await page.reload();
  await expect(page.getByTestId("message-user")).toHaveText(["Run the slow command."], { timeout: 30_000 });
  await expect(indicator(page)).toBeVisible();
  // This tab started the run (it remembers across the reload): not "another tab".
  await expect(indicator(page)).not.toContainText("started elsewhere");
  await expect(page.getByText("still working on what this tab sent before it was reloaded")).toBeVisible();
  await expect(page.getByTestId("message-assistant").first()).toContainText("Running the slow command.");
  // The tool call goes on after the reload and finishes; the final answer streams live (held after its first delta).
  await expect(tool(page)).toHaveAttribute("data-status", "done", { timeout: 15_000 });
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
    expect.stringMatching(/^assistant: Running the slow command\./),
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
  await expect(page.getByTestId("message-user")).toHaveText(["Run the slow command."], { timeout: 30_000 });
  expect(await transcript(page)).toEqual(live);
  await expect(indicator(page)).toHaveCount(0);
});

test("a second tab streams the same run without polling; Abort there ends it for both", async ({
  page,
  context,
}, testInfo) => {
  await mock.script({
    text: ["Step one.", " Step two."],
    holdUntilReleased: "tab-gate",
    toolCalls: [{ id: "toolu_long_1", name: "bash", input: { command: "sleep 30" } }],
  });
  await openZipProject(page, uniqueName("two-tabs"), { "README.md": README });
  await composer(page).fill("Work for a while.");
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-assistant").last()).toHaveText("Step one.");

  const other = await context.newPage();
  const requests = recordSessionRequests(other);
  await other.goto(page.url());
  await expect(other.getByTestId("message-user")).toHaveText(["Work for a while."], { timeout: 30_000 });
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
  await other.screenshot({ path: testInfo.outputPath("second-tab-running.png") });
  await page.screenshot({ path: testInfo.outputPath("first-tab-running.png") });

  // While the tool sleeps, the second tab makes no request at all: one long event stream, no polling.
  const quietFrom = Date.now();
  await other.waitForTimeout(3500);
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
