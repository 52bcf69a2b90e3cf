/**
 * The composer's `/` autocomplete, end to end in Chromium, on a project with a prompt template and a skill (trusted
 * through pi's trust prompt): typing `/` lists `/compact`, the template and `/skill:<name>` with their exact
 * descriptions; typing filters; arrows move (wrapping), Escape closes; Enter, Tab and a click pick and insert
 * `/name ` with the focus kept; sending the template expands it, and the mock provider gets the expanded text.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { anthropicRequests, blocksOf, composer, messagesOf, uniqueName } from "./helpers";

const TEMPLATE =
  "---\ndescription: Review a file for bugs\nargument-hint: <path>\n---\nReview $1 for bugs and list them.\n";
const SKILL =
  "---\nname: lint-fix\ndescription: Fixes lint errors in the project.\n---\n\nRun the linter, then fix.\n";

const list = (page: Page) => page.getByRole("listbox", { name: "Commands, prompt templates and skills" });
const options = (page: Page) => list(page).getByRole("option");
const names = (page: Page) => options(page).locator(".slash-name");

async function expectActive(page: Page, name: string) {
  const active = options(page).filter({
    has: page.locator(".slash-name", { hasText: new RegExp(`^${name}$`) }),
  });
  await expect(active).toHaveAttribute("aria-selected", "true");
  const id = await active.getAttribute("id");
  await expect(composer(page)).toHaveAttribute("aria-activedescendant", id ?? "");
}

test("typing / lists commands, templates and skills; filter, keys, click; a template expands", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script({ text: "No bugs found." });
  await openProject(page, uniqueName("slash"), {
    "README.md": "# Slash\n",
    "src/a.ts": "export const a = 1;\n",
    ".pi/prompts/review.md": TEMPLATE,
    ".pi/skills/lint-fix/SKILL.md": SKILL,
  });
  const dialog = page.getByRole("dialog", { name: "Trust project folder?" });
  await dialog.getByRole("button", { name: "Trust", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Context", exact: true })).toContainText("in effect");

  const box = composer(page);
  await box.click();
  await expect(page.getByRole("form", { name: "Composer" }).locator(".hint")).toHaveText(
    "Enter to send · Shift+Enter for a new line · / for commands, templates and skills",
  );
  await expect(list(page)).toHaveCount(0);
  await page.keyboard.type("/");
  await expect(names(page)).toHaveText(["/compact", "/review", "/skill:lint-fix"]);
  await expect(options(page).locator(".slash-description")).toHaveText([
    "Manually compact the session context",
    "Review a file for bugs",
    "Fixes lint errors in the project.",
  ]);
  await expect(options(page).locator(".slash-hint")).toHaveText(["[instructions]", "<path>", ""]);
  await expect(options(page).locator(".slash-source")).toHaveText(["command", "prompt template", "skill"]);
  await expect(box).toHaveAttribute("aria-controls", (await list(page).getAttribute("id")) ?? "");
  await expectActive(page, "/compact");
  await shot(page, "slash-list");

  // Filtering as you type, and back.
  await page.keyboard.type("li");
  await expect(names(page)).toHaveText(["/skill:lint-fix"]);
  await page.keyboard.type("zz");
  await expect(list(page)).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "No command" })).toHaveText(
    "No command, prompt template or skill matches this name.",
  );
  for (let i = 0; i < 4; i++) await page.keyboard.press("Backspace");
  await expect(names(page)).toHaveCount(3);

  // Arrows move and wrap; Escape closes until the text changes.
  await page.keyboard.press("ArrowDown");
  await expectActive(page, "/review");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expectActive(page, "/compact");
  await page.keyboard.press("ArrowUp");
  await expectActive(page, "/skill:lint-fix");
  await page.keyboard.press("Escape");
  await expect(list(page)).toHaveCount(0);
  await expect(box).toHaveValue("/");
  await expect(box).not.toHaveAttribute("aria-activedescendant");

  // A click picks without taking the focus away.
  await page.keyboard.type("s");
  await expect(names(page)).toHaveText(["/skill:lint-fix"]);
  await options(page).nth(0).click();
  await expect(box).toHaveValue("/skill:lint-fix ");
  await expect(box).toBeFocused();
  await expect(list(page)).toHaveCount(0);

  // Tab picks; then Enter on a typed query picks.
  await box.fill("");
  await page.keyboard.type("/co");
  await page.keyboard.press("Tab");
  await expect(box).toHaveValue("/compact ");
  await expect(box).toBeFocused();
  await box.fill("");
  await page.keyboard.type("/rev");
  await expectActive(page, "/review");
  await page.keyboard.press("Enter");
  await expect(box).toHaveValue("/review ");
  await expect(box).toBeFocused();
  expect(await box.evaluate((el: HTMLTextAreaElement) => el.selectionStart)).toBe(8);

  // Arguments, then Enter sends: the template is expanded for the model.
  await page.keyboard.type("src/a.ts");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("message-assistant").last()).toContainText("No bugs found.");
  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(1);
  const user = messagesOf(requests[0])
    .filter((m) => m.role === "user")
    .at(-1);
  expect(user && blocksOf(user).map((b) => b.text)).toEqual(["Review src/a.ts for bugs and list them."]);
});
