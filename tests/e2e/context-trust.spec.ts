/**
 * Resources and trust in the IDE, end to end in Chromium: import a project whose `.pi/skills/x/SKILL.md`
 * needs trust, answer pi's trust prompt with "Trust", see the skill in the Context panel (trust-gated),
 * then run `/skill:x do it` and check the user message the provider received is pi's exact skill block.
 */

import { strToU8, zipSync } from "fflate";
import { expect, test } from "./fixtures";

const SKILL = "---\nname: x\ndescription: Does x.\n---\n\nDo x carefully.\n";

test("trust prompt, Context panel, /skill: expansion", async ({ page, mock }) => {
  await mock.script({ text: "Done with x." });
  const zip = zipSync({
    "skills-demo/README.md": strToU8("# Skills demo\n"),
    "skills-demo/.pi/skills/x/SKILL.md": strToU8(SKILL),
  });

  await page.goto("/");
  await page.getByLabel("Archive").setInputFiles({
    name: "skills-demo.zip",
    mimeType: "application/zip",
    buffer: Buffer.from(zip),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await page.getByRole("link", { name: /^Open skills-demo/ }).click();

  const dialog = page.getByRole("dialog", { name: "Trust project folder?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("/skills-demo");
  await expect(dialog).toContainText(
    "This allows Strata to load .pi settings and resources, install missing project packages, and execute project extensions.",
  );
  await expect(dialog).toContainText("/skills-demo/.pi/skills");
  await expect(dialog.getByRole("button")).toHaveText([
    "Trust",
    "Trust parent folder (/)",
    "Trust (this session only)",
    "Do not trust",
    "Do not trust (this session only)",
    "Decide later",
  ]);
  await dialog.getByRole("button", { name: "Trust", exact: true }).click();
  await expect(dialog).toBeHidden();

  const context = page.getByRole("region", { name: "Context", exact: true });
  await context.getByRole("button", { name: "Context", exact: true }).click();
  await expect(context).toContainText("Project trusted");
  const skills = context.getByRole("region", { name: "Skills" });
  await expect(skills.getByRole("listitem")).toHaveCount(1);
  await expect(skills.getByRole("listitem")).toContainText("x");
  await expect(skills.getByRole("listitem")).toContainText("/skills-demo/.pi/skills/x/SKILL.md");
  await expect(skills.getByRole("listitem")).toContainText("trust-gated");

  await page.getByLabel("Message").fill("/skill:x do it");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Done with x.");

  const requests = (await mock.requests()).filter((r) => r.path === "/v1/messages");
  expect(requests).toHaveLength(1);
  const body = requests[0].body as {
    system: { text: string }[];
    messages: { role: string; content: string | { type: string; text?: string }[] }[];
  };
  const user = body.messages.filter((m) => m.role === "user").at(-1)!;
  const text =
    typeof user.content === "string" ? user.content : user.content.map((c) => c.text ?? "").join("");
  expect(text).toBe(
    '<skill name="x" location="/skills-demo/.pi/skills/x/SKILL.md">\nReferences are relative to /skills-demo/.pi/skills/x.\n\nDo x carefully.\n</skill>\n\ndo it',
  );
  expect(body.system.map((b) => b.text).join("")).toContain(
    "<location>/skills-demo/.pi/skills/x/SKILL.md</location>",
  );

  // The decision is stored: a reload asks nothing.
  await page.reload();
  await expect(page.getByRole("region", { name: "Context", exact: true })).toContainText("in effect");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
