/**
 * A team viewer's UI offers nothing the role cannot do (the server refuses it with 403 anyway). Two fresh accounts
 * (the `newUser` fixture): the owner creates a team, imports a zip project into it from `/?workspace=<team>`
 * and opens it (a session exists, the owner's IDE still offers + File and an enabled composer), invites the viewer
 * (role viewer) who accepts. The viewer's home shows a note instead of the import form and no Rename/Delete; the
 * viewer's IDE shows the banner, a disabled composer saying why, no + File/+ Folder/delete, no New session, no
 * project Rename/Delete, and a read-only editor (typing changes nothing). Screenshot in STRATA_E2E_SHOTS.
 */
import type { APIRequestContext } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { expect, test } from "./fixtures";
import { composer } from "./helpers";
import { E2E_APP_URL } from "./ports";

const STAMP = Date.now().toString(36);

async function authPost<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const res = await request.post(`/api/auth${path}`, { data, headers: { origin: E2E_APP_URL } });
  const text = await res.text();
  expect(res.status(), `${path}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
}

test("a team viewer gets a read-only home and IDE with the reason", async ({ newUser, shot }) => {
  const teamName = `Readers ${STAMP}`;
  const projectName = `readers-${STAMP}`;
  const README = `Read me, do not edit ${STAMP}\n`;
  const owner = await newUser("Olive Owner");
  const viewer = await newUser("Vic Viewer");
  const team = await authPost<{ id: string }>(owner.page.request, "/organization/create", {
    name: teamName,
    slug: `readers-${STAMP}`,
  });

  // The owner imports the project into the team and opens it: the IDE offers what it did before.
  const o = owner.page;
  await o.goto(`/?workspace=${team.id}`);
  await expect(o.getByRole("heading", { name: "Import a project" })).toBeVisible();
  const zip = zipSync({ [`${projectName}/README.md`]: strToU8(README) });
  await o.getByLabel("Archive").setInputFiles({
    name: `${projectName}.zip`,
    mimeType: "application/zip",
    buffer: Buffer.from(zip),
  });
  await o.getByRole("button", { name: "Import" }).click();
  const openLink = o.getByRole("link", { name: new RegExp(`^Open ${projectName}$`) });
  await expect(openLink).toBeVisible();
  const projectId = ((await openLink.getAttribute("href")) as string).split("/").pop() as string;
  await openLink.click();
  await expect(o).toHaveURL(`${E2E_APP_URL}/projects/${projectId}`);
  await expect(composer(o)).toBeEnabled();
  await expect(o.getByRole("button", { name: "New file", exact: true })).toBeVisible();
  await expect(o.getByRole("button", { name: "New session", exact: true })).toBeVisible();
  await expect(o.getByRole("button", { name: `Rename project ${projectName}` })).toBeVisible();
  await expect(o.getByRole("status").filter({ hasText: "You are a viewer" })).toHaveCount(0);

  const invitation = await authPost<{ id: string }>(o.request, "/organization/invite-member", {
    email: viewer.user.email,
    role: "viewer",
    organizationId: team.id,
  });
  await authPost(viewer.page.request, "/organization/accept-invitation", { invitationId: invitation.id });

  // The viewer's home: a note instead of the import form, the project without Rename/Delete.
  const v = viewer.page;
  await v.goto(`/?workspace=${team.id}`);
  await expect(v.getByText("Team workspace · your role: viewer")).toBeVisible();
  await expect(
    v.getByText(
      `You are a viewer in ${teamName}: you can open and read its projects. Ask an owner or admin of the team for member access to import, rename or delete projects.`,
      { exact: true },
    ),
  ).toBeVisible();
  await expect(v.getByRole("heading", { name: "Import a project" })).toHaveCount(0);
  await expect(v.getByLabel("Archive")).toHaveCount(0);
  const projects = v.getByRole("list", { name: "Projects" });
  await expect(projects.getByRole("link", { name: projectName, exact: true })).toBeVisible();
  await expect(v.getByRole("button", { name: `Rename project ${projectName}` })).toHaveCount(0);
  await expect(v.getByRole("button", { name: `Delete project ${projectName}` })).toHaveCount(0);

  // The viewer's IDE: the banner, a disabled composer saying why, no change actions, a read-only editor.
  await projects.getByRole("link", { name: projectName, exact: true }).click();
  await expect(v).toHaveURL(`${E2E_APP_URL}/projects/${projectId}`);
  const reason = `You are a viewer in ${teamName}: you can read files and sessions. Ask an owner or admin of the team for member access to prompt or edit.`;
  await expect(v.getByRole("status").filter({ hasText: "You are a viewer" })).toHaveText(reason);
  await expect(composer(v)).toBeDisabled();
  await expect(composer(v)).toHaveAttribute("placeholder", reason);
  for (const name of ["Send", "Steer", "Follow up", "Abort", "New session", "Import session"])
    await expect(v.getByRole("button", { name, exact: true })).toHaveCount(0);
  await expect(v.getByRole("button", { name: "New file", exact: true })).toHaveCount(0);
  await expect(v.getByRole("button", { name: "New folder", exact: true })).toHaveCount(0);
  await expect(v.getByRole("button", { name: "Delete README.md" })).toHaveCount(0);
  await expect(v.getByRole("button", { name: `Rename project ${projectName}` })).toHaveCount(0);
  await expect(v.getByRole("button", { name: `Delete project ${projectName}` })).toHaveCount(0);
  await expect(v.getByLabel("Session", { exact: true })).toBeVisible();

  await v.getByRole("treeitem", { name: "README.md" }).click();
  const editor = v.getByTestId("editor");
  await expect(editor.locator(".view-lines")).toContainText(`Read me, do not edit ${STAMP}`);
  await editor.locator(".view-lines").click();
  await v.keyboard.press("ControlOrMeta+A");
  await v.keyboard.type("overwritten");
  await expect(editor.locator(".view-lines")).toContainText(`Read me, do not edit ${STAMP}`);
  await expect(editor.locator(".view-lines")).not.toContainText("overwritten");
  await expect(v.getByText("Modified", { exact: true })).toHaveCount(0);
  await expect(v.getByText("Read-only", { exact: true })).toBeVisible();
  await shot(v, "viewer-readonly-ide");

  // The file on the server is unchanged.
  const file = await v.request.get(`/api/projects/${projectId}/file?path=README.md`);
  expect(file.status()).toBe(200);
  expect((await file.json()).content).toBe(README);
});
