/**
 * The workspace settings page's sandbox switch (issue 12): off by default, the owner turns it on (the answer says
 * what it now allows), a reload keeps it, and it turns off again. With it on, the agent's `python3 -m unittest` runs in
 * the sandbox (a real CPython, threads included) and its tool call is marked so. Screenshots in STRATA_E2E_SHOTS.
 */
import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

test("the owner turns the sandbox on and off on the workspace settings page", async ({ page, shot }) => {
  await page.goto("/");
  const workspaces = (await (await page.request.get("/api/workspaces")).json()) as {
    workspaces: { id: string; kind: string }[];
  };
  const workspaceId = workspaces.workspaces.find((w) => w.kind === "personal")?.id as string;
  await page.request.put(`/api/workspaces/${workspaceId}/sandbox`, { data: { enabled: false } });

  await page.goto(`/workspaces/${workspaceId}/settings`);
  await expect(page.getByRole("heading", { name: "Run the project's code" })).toBeVisible();
  const toggle = page.getByRole("switch", { name: "Run the project's code" });
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toHaveAccessibleDescription(/run in an isolated Linux sandbox/);
  await shot(page, "sandbox-off", { fullPage: true });

  await toggle.click();
  await expect(
    page.getByText("Sandbox on. New prompts in this workspace's projects can run the project's code."),
  ).toBeVisible();
  await expect(toggle).toBeChecked();
  await shot(page, "sandbox-on", { fullPage: true });
  await page.reload();
  await expect(page.getByRole("switch", { name: "Run the project's code" })).toBeChecked();
  expect(await (await page.request.get(`/api/workspaces/${workspaceId}/sandbox`)).json()).toEqual({
    enabled: true,
  });

  await page.getByRole("switch", { name: "Run the project's code" }).click();
  await expect(page.getByText("Sandbox off. The agent's shell is the simulated one only.")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Run the project's code" })).not.toBeChecked();
});

test("with the sandbox on, the agent's python3 -m unittest runs in the sandbox, and the chat says so", async ({
  page,
  user,
  mock,
  openProject,
  shot,
}) => {
  await user.api.put(`/api/workspaces/${user.workspaceId}/sandbox`, { data: { enabled: true } });
  const command = "python3 -m unittest discover -s tests -v";
  await mock.script(
    { toolCalls: [{ id: "toolu_py", name: "bash", input: { command } }] },
    { text: "Both tests pass." },
  );
  await openProject(page, uniqueName("pytests"), {
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py":
      "import threading, unittest\nfrom calc import add\n\n" +
      "class CalcTest(unittest.TestCase):\n" +
      "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n" +
      "    def test_threads(self):\n" +
      "        out = []\n        ts = [threading.Thread(target=out.append, args=(i,)) for i in range(100)]\n" +
      "        [t.start() for t in ts]\n        [t.join() for t in ts]\n        self.assertEqual(len(out), 100)\n",
  });
  await composer(page).fill("run the tests");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expectIdle(page);
  const call = page.getByTestId("tool-call").filter({ hasText: command });
  await expect(call.getByTestId("ran-in-sandbox")).toHaveText("sandbox");
  await expect(call).toHaveAttribute("data-status", "done");
  await call.locator("summary").click();
  // unittest writes to stderr: both tests ran with a real CPython (threads included) and passed.
  await expect(call.locator(".tool-result")).toContainText("test_threads (test_calc.CalcTest");
  await expect(call.locator(".tool-result")).toContainText("Ran 2 tests");
  await expect(call.locator(".tool-result")).toContainText("OK");
  await shot(page, "unittest-in-sandbox");
});
