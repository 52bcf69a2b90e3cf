/**
 * pi's `images.blockImages` (11.1–11.2) in a real run: `runPrompt` reads the setting from the trusted project's
 * `.pi/settings.json` for every request, and the provider (the mock's Anthropic endpoint) gets pi's
 * `Image reading is disabled.` in place of each image; with the setting off again the next request carries the
 * stored image.
 */
import { expect, it } from "vitest";
import { runPrompt } from "@/lib/agent-session/session-run";
import { IMAGE_READING_DISABLED } from "@/lib/context/block-images";
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { setSessionTrustOverride } from "@/lib/projects/session-resources";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";

/** An 8x8 red PNG. */
const RED =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGO4o6GBFTEMLQkAe3tLAfuiUfAAAAAASUVORK5CYII=";

const stack = withMockStack();

async function writeSettings(workspaceId: string, path: string, settings: unknown) {
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(workspaceId, s);
  await vfs.writeFile(path, JSON.stringify(settings));
  await vfs.flush();
  await s.release();
}

type Block = { type: string; text?: string; source?: { data?: string } };
const userContents = () =>
  stack.mock.requests
    .filter((r) => r.path === "/v1/messages")
    .map((r) =>
      (r.body as { messages: { role: string; content: string | Block[] }[] }).messages
        .filter((m) => m.role === "user")
        .map((m) => m.content),
    );

it("a run with images.blockImages on sends no image; turned off, the next request sends the stored one", async () => {
  const actor = await getLocalActor(stack.scope);
  const project = await insertProject(stack.scope, {
    workspaceId: actor.workspaceId,
    name: "blocked",
    source: null,
  });
  const settingsPath = `${project.rootPath}/.pi/settings.json`;
  await writeSettings(actor.workspaceId, settingsPath, { images: { blockImages: true } });
  const session = await createSession(stack.scope, { projectId: project.id, cwd: project.rootPath });
  await setSessionTrustOverride(stack.scope, session.id, true);

  stack.mock.enqueue({ text: "I cannot see it." }, { text: "A red square." });
  const image = { type: "image" as const, data: RED, mimeType: "image/png" };
  await runPrompt({
    sessionId: session.id,
    text: "Describe it",
    images: [image],
    env: stack.env,
    emit: async () => {},
  });

  expect(userContents()).toEqual([
    [
      [
        { type: "text", text: "Describe it" },
        { type: "text", text: IMAGE_READING_DISABLED },
      ],
    ],
  ]);
  expect(JSON.stringify(stack.mock.requests[0].body)).not.toContain(RED);

  // 11.2: the setting is read again for the next request.
  await writeSettings(actor.workspaceId, settingsPath, { images: { blockImages: false } });
  await runPrompt({ sessionId: session.id, text: "And now?", env: stack.env, emit: async () => {} });
  expect(userContents()[1]).toEqual([
    [
      { type: "text", text: "Describe it" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: RED } },
    ],
    [{ type: "text", text: "And now?" }],
  ]);
});
