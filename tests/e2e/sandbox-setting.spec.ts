/**
 * The workspace settings page's sandbox switch (issue 12): off by default, the owner turns it on (the answer says
 * what it now allows), a reload keeps it, and it turns off again. Screenshots in STRATA_E2E_SHOTS.
 */
import { expect, test } from "./fixtures";

test("the owner turns the sandbox on and off on the workspace settings page", async ({ page, shot }) => {
  await page.goto("/");
  const workspaces = (await (await page.request.get("/api/workspaces")).json()) as {
    workspaces: { id: string; kind: string }[];
  };
  const workspaceId = workspaces.workspaces.find((w) => w.kind === "personal")?.id as string;
  await page.request.put(`/api/workspaces/${workspaceId}/sandbox`, { data: { enabled: false } });

  await page.goto(`/workspaces/${workspaceId}/settings`);
  await expect(page.getByRole("heading", { name: "Run the project's code" })).toBeVisible();
  const toggle = page.getByRole("switch");
  await expect(toggle).not.toBeChecked();
  await expect(page.locator("#sandbox-what")).toContainText("run in an isolated Linux sandbox");
  await shot(page, "sandbox-off", { fullPage: true });

  await toggle.click();
  await expect(
    page.getByText("Sandbox on. New prompts in this workspace's projects can run the project's code."),
  ).toBeVisible();
  await expect(toggle).toBeChecked();
  await shot(page, "sandbox-on", { fullPage: true });
  await page.reload();
  await expect(page.getByRole("switch")).toBeChecked();
  expect(await (await page.request.get(`/api/workspaces/${workspaceId}/sandbox`)).json()).toEqual({
    enabled: true,
  });

  await page.getByRole("switch").click();
  await expect(page.getByText("Sandbox off. The agent's shell is the simulated one only.")).toBeVisible();
  await expect(page.getByRole("switch")).not.toBeChecked();
});
