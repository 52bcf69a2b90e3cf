/**
 * Approval of merges in a team, in Chromium: the owner turns "Merges into main need approval" on in the team's
 * settings; a member's session changes a file and "Ask for approval" makes a merge request (main unchanged); the
 * owner opens the same review, sees the request and the member's comment, and approves it: main holds the member's
 * text, and the member's page shows the request approved.
 */
import { strToU8, zipSync } from "fflate";
import { expect, test } from "./fixtures";
import { composer, sessionFilesUrl } from "./helpers";
import { E2E_APP_URL } from "./ports";

const STAMP = Date.now().toString(36);

test("a member asks for a merge, comments; the owner approves it and main changes", async ({
  newUser,
  shot,
}) => {
  test.setTimeout(180_000);
  const owner = await newUser("Olive Owner");
  const member = await newUser("Mia Member");
  const o = owner.page;
  const m = member.page;
  const post = async <T>(page: typeof o, path: string, data: unknown): Promise<T> => {
    const res = await page.request.post(`/api/auth${path}`, { data, headers: { origin: E2E_APP_URL } });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as T;
  };
  const team = await post<{ id: string }>(o, "/organization/create", {
    name: `Approvers ${STAMP}`,
    slug: `approvers-${STAMP}`,
  });
  const invitation = await post<{ id: string }>(o, "/organization/invite-member", {
    email: member.user.email,
    role: "member",
    organizationId: team.id,
  });
  await post(m, "/organization/accept-invitation", { invitationId: invitation.id });

  // The owner requires approval in the team's settings.
  await o.goto(`/workspaces/${team.id}/settings`);
  const toggle = o.getByRole("switch", { name: "Merges into main need approval" });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(o.getByRole("status").filter({ hasText: "Members' merges into main now wait" })).toBeVisible();
  await expect(toggle).toBeChecked();

  // A team project; the member's session changes notes.md.
  const projectName = `approvals-${STAMP}`;
  const imported = await o.request.post("/api/projects", {
    headers: { origin: E2E_APP_URL },
    multipart: {
      file: {
        name: `${projectName}.zip`,
        mimeType: "application/zip",
        buffer: Buffer.from(zipSync({ [`${projectName}/notes.md`]: strToU8("base\n") })),
      },
      workspaceId: team.id,
    },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const projectId = ((await imported.json()) as { project: { id: string } }).project.id;
  await m.goto(`/projects/${projectId}`);
  await expect(composer(m)).toBeEnabled();
  const saved = await m.request.put(await sessionFilesUrl(m, projectId, "/file"), {
    data: { path: "notes.md", content: "from Mia\n" },
  });
  expect(saved.status()).toBe(200);
  const sessionId = new URL(await sessionFilesUrl(m, projectId, ""), E2E_APP_URL).searchParams.get("session");

  // The member asks for approval and comments.
  await m.goto(`/projects/${projectId}/sessions/${sessionId}/merge`);
  await expect(m.getByRole("heading", { name: "1 file · 0 conflicts" })).toBeVisible();
  await m.getByRole("button", { name: "Ask for approval", exact: true }).click();
  await expect(m.getByRole("status").filter({ hasText: "Waiting for approval" })).toContainText(
    "Your merge request is open",
  );
  const panel = m.getByRole("region", { name: "Merge request" });
  await expect(panel.getByRole("heading")).toHaveText("Waiting for approval · asked by Mia Member");
  await panel.getByRole("textbox", { name: "Comment" }).fill("Please review the notes");
  await panel.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(panel.getByRole("listitem")).toHaveText(["Mia Member: Please review the notes"]);
  await expect(panel.getByRole("button", { name: "Approve and merge" })).toHaveCount(0);
  const main = async () =>
    (
      (await (await o.request.get(`/api/projects/${projectId}/file?path=notes.md`)).json()) as {
        content: string;
      }
    ).content;
  expect(await main()).toBe("base\n");
  await shot(m, "merge-request-member");

  // The owner approves it on the same page.
  await o.goto(`/projects/${projectId}/sessions/${sessionId}/merge`);
  const review = o.getByRole("region", { name: "Merge request" });
  await expect(review.getByRole("listitem")).toHaveText(["Mia Member: Please review the notes"]);
  await shot(o, "merge-request-owner");
  await review.getByRole("button", { name: "Approve and merge" }).click();
  await expect(review.getByRole("heading")).toHaveText(
    /^Approved and merged · asked by Mia Member · decided by Olive Owner · commit [0-9a-f]{8}$/,
  );
  expect(await main()).toBe("from Mia\n");
  await m.reload();
  await expect(m.getByRole("region", { name: "Merge request" }).getByRole("heading")).toHaveText(
    /^Approved and merged · asked by Mia Member · decided by Olive Owner/,
  );
});
