/**
 * Issue 14, "getting work out", in Chromium: the local owner stores a git credential for a loopback git server (that
 * accepts pushes behind Basic auth) in Workspace settings, imports a small project, downloads its working tree from the
 * project header's "Get work out" menu (the zip's entries are checked), pushes the project branch with the Push
 * dialog (the credential status shows under the URL; the remote's branch is checked with real git), and pulls a commit
 * made upstream with real git (the file tree shows the new file). Screenshots in the test's output folder.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { unzipSync } from "fflate";
import { type GitServer, makeEmptyBare, startGitServer } from "../git-server";
import { expect, test } from "./fixtures";
import { uniqueName } from "./helpers";

const USERNAME = "e2e-bot";
const TOKEN = "e2e_git_token_0123456789";

let server: GitServer | undefined;
let bare: string | undefined;
const temp: string[] = [];
test.afterAll(async () => {
  await server?.close();
  if (bare) rmSync(dirname(bare), { recursive: true, force: true });
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

/** `git` on disk as "Upstream Dev" with the server's credentials; async: the git server runs in this process. */
const git = async (cwd: string, ...args: string[]) =>
  (
    await promisify(execFile)(
      "git",
      ["-c", `http.extraHeader=Authorization: Basic ${btoa(`${USERNAME}:${TOKEN}`)}`, ...args],
      {
        cwd,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "Upstream Dev",
          GIT_AUTHOR_EMAIL: "dev@example.test",
          GIT_COMMITTER_NAME: "Upstream Dev",
          GIT_COMMITTER_EMAIL: "dev@example.test",
        },
      },
    )
  ).stdout.trim();

test("Get work out: download the working tree, push with a stored credential, pull an upstream commit", async ({
  page,
  openProject,
  shot,
}) => {
  test.setTimeout(180_000);
  bare = await makeEmptyBare("e2e-remote");
  server = await startGitServer({
    repos: { out: bare },
    push: true,
    auth: { username: USERNAME, password: TOKEN },
  });
  const remoteUrl = `${server.url}/out.git`;
  const host = new URL(server.url).host;

  // 1. The credential, through Workspace settings → Git credentials.
  const res = await page.request.get("/api/workspaces");
  const { workspaces } = (await res.json()) as { workspaces: { id: string; kind: string }[] };
  const personal = workspaces.find((w) => w.kind === "personal") as { id: string };
  await page.goto(`/workspaces/${personal.id}/settings`);
  const card = page.getByRole("region", { name: "Git credentials" });
  const form = card.getByRole("form", { name: "Add or replace a git credential" });
  await form.getByLabel("Host").fill(`${server.url}/out.git`);
  await form.getByLabel("User name").fill(USERNAME);
  await form.getByLabel("Token or password").fill(TOKEN);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("status")).toHaveText(
    `Credential for ${host} saved. Pushes and pulls to ${host} use it.`,
  );
  await expect(card.getByRole("list", { name: "Git credentials" })).toContainText(host);
  await expect(page.locator("body")).not.toContainText(TOKEN);
  await shot(card, "git-credentials");

  // 2. A project; download its working tree.
  const name = uniqueName("getout");
  await openProject(page, name, { "README.md": "# Out\n", "src/main.ts": "export const x = 1;\n" });
  const menu = page.getByRole("button", { name: "Get work out" });
  await menu.click();
  await expect(page.getByRole("menuitem", { name: "Push to a git remote…" })).toBeVisible();
  await shot(page, "menu");
  await page.getByRole("menuitem", { name: "Download .zip…" }).click();
  const download = page.getByRole("dialog", { name: "Download .zip" });
  await expect(download.getByLabel("What to download")).toHaveValue("worktree");
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    download.getByRole("button", { name: "Download .zip" }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(`${name}-working-tree.zip`);
  const entries = unzipSync(new Uint8Array(readFileSync(await file.path())));
  expect(Object.keys(entries).sort()).toEqual(["README.md", "src/main.ts"]);
  expect(new TextDecoder().decode(entries["src/main.ts"])).toBe("export const x = 1;\n");
  await expect(download.getByRole("status")).toContainText(`Downloaded ${name}-working-tree.zip`);
  await shot(page, "download");
  // Escape closes it after the download too (the busy button had dropped focus to the page).
  await page.keyboard.press("Escape");
  await expect(download).toBeHidden();

  // 3. Push the project branch.
  await menu.click();
  await page.getByRole("menuitem", { name: "Push to a git remote…" }).click();
  const push = page.getByRole("dialog", { name: "Push to a git remote" });
  await push.getByLabel("Remote repository URL").fill(remoteUrl);
  await expect(push.getByText(`A git credential for ${host} is stored in this workspace`)).toBeVisible();
  await expect(push.getByRole("textbox", { name: "Remote branch" })).toHaveValue("main");
  await push.getByRole("button", { name: "Push" }).click();
  await expect(push.getByRole("status").filter({ hasText: "Pushed" })).toHaveText(
    /^Pushed [0-9a-f]{7} to main on 127\.0\.0\.1:\d+ \(new branch\)\.$/,
  );
  await shot(page, "push");
  const clone = join(mkdtempSync(join(tmpdir(), "strata-e2e-up-")), "up");
  temp.push(dirname(clone));
  await git(dirname(clone), "clone", "--quiet", "--branch", "main", remoteUrl, clone);
  expect(readFileSync(join(clone, "src/main.ts"), "utf8")).toBe("export const x = 1;\n");
  await push.getByRole("button", { name: "Close" }).click();

  // 4. A commit upstream, pulled through the dialog: the tree shows the new file.
  writeFileSync(join(clone, "UPSTREAM.md"), "from upstream\n");
  await git(clone, "add", "-A");
  await git(clone, "commit", "--quiet", "-m", "Upstream file");
  await git(clone, "push", "--quiet", "origin", "HEAD:main");
  const upstream = await git(clone, "rev-parse", "HEAD");
  await menu.click();
  await page.getByRole("menuitem", { name: "Pull from a git remote…" }).click();
  const pull = page.getByRole("dialog", { name: "Pull from a git remote" });
  await expect(pull.getByLabel("Remote repository URL")).toHaveValue(remoteUrl);
  await pull.getByRole("button", { name: "Pull" }).click();
  await expect(pull.getByRole("status").filter({ hasText: "Fast-forwarded" })).toContainText(
    `Fast-forwarded main to ${upstream.slice(0, 7)}: 1 file changed.`,
  );
  await expect(pull.getByRole("status").filter({ hasText: "Fast-forwarded" })).toContainText("+ UPSTREAM.md");
  await shot(page, "pull");
  await expect(pull.getByRole("status").filter({ hasText: "Fast-forwarded" })).toContainText(
    "That is the project's main line: new sessions start from it; open sessions keep their own files.",
  );
  await pull.getByRole("button", { name: "Close" }).click();
  // The pull moved main: the open session keeps its files, a new session has the upstream file.
  const files = page.getByRole("navigation", { name: "Project files" });
  await expect(files.getByText("src")).toBeVisible();
  await expect(files.getByText("UPSTREAM.md")).toHaveCount(0);
  await page.getByRole("button", { name: "New session" }).click();
  await expect(files.getByText("UPSTREAM.md")).toBeVisible();
  await expect(page.locator("body")).not.toContainText(TOKEN);
});
