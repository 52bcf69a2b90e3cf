/**
 * Images on a prompt, end to end in Chromium: attached with the "Attach image" file picker, pasted and dropped;
 * unsupported and oversized files refused with exact texts; thumbnails with Remove before sending; a send that
 * fails keeps text and images in the composer; the request that reaches the mock provider carries pi's images as
 * Anthropic base64 image blocks with the exact data; the chat shows the thumbnails, also after a reload; a model
 * without image input says what will happen and the provider gets pi's placeholder text.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { anthropicRequests, composer, expectIdle, messagesOf, uniqueName } from "./helpers";

/** 8x8 PNGs, red and blue (74 bytes each). */
const RED =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGO4o6GBFTEMLQkAe3tLAfuiUfAAAAAASUVORK5CYII=";
const BLUE =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGPQiLqDFTEMLQkAA8ZXgV21/8cAAAAASUVORK5CYII=";
const png = (name: string, base64: string) => ({
  name,
  mimeType: "image/png",
  buffer: Buffer.from(base64, "base64"),
});

const NEED_TEXT = "Add a few words about the images to send them.";
const SVG_REFUSED =
  '"logo.svg" cannot be attached: image/svg+xml is not a PNG, JPEG, GIF or WebP image. Attach an image of one of these types.';
const TOO_LARGE =
  '"huge.png" cannot be attached: it is 5 MiB, and an image can be at most 4.5 MiB. Shrink or crop it, then attach it again.';
const TEXT_ONLY_NOTICE =
  'Claude (text only) has no image input: the images are kept in the session, but the model gets the text "(image omitted: model does not support images)" in their place. To let the model see them, switch to a model with image input.';

async function pickFiles(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach image", exact: true }).click();
  await (await chooser).setFiles(files);
}

/** Dispatch a paste (on the message box) or a dragover / drop (on the composer) carrying one file. */
async function transfer(
  page: Page,
  kind: "paste" | "dragover" | "drop",
  file: { name: string; type: string; base64: string },
) {
  const target = kind === "paste" ? composer(page) : page.getByRole("form", { name: "Composer" });
  await target.evaluate(
    (el, { kind, file }) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], file.name, { type: file.type }));
      const init = { bubbles: true, cancelable: true };
      el.dispatchEvent(
        kind === "paste"
          ? new ClipboardEvent("paste", { ...init, clipboardData: data })
          : new DragEvent(kind, { ...init, dataTransfer: data }),
      );
    },
    { kind, file },
  );
}

const attachAlert = (page: Page) => page.getByRole("form", { name: "Composer" }).getByRole("alert");
const tray = (page: Page) => page.getByRole("list", { name: "Attached images" }).getByRole("listitem");

test("attach by picker, paste and drop; refusals; kept on a failed send; sent as Anthropic image blocks", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script({ text: "A red square and a blue one." });
  await openProject(page, uniqueName("images"), { "README.md": "# Images\n" });

  await pickFiles(page, [png("red.png", RED)]);
  await expect(tray(page)).toHaveCount(1);
  await expect(tray(page).first()).toContainText("red.png");
  await expect(tray(page).first()).toContainText("74 bytes");
  await expect(tray(page).first().getByRole("img", { name: "red.png" })).toHaveAttribute(
    "src",
    `data:image/png;base64,${RED}`,
  );
  await expect(page.getByRole("note").filter({ hasText: NEED_TEXT })).toBeVisible();

  await transfer(page, "paste", { name: "blue.png", type: "image/png", base64: BLUE });
  await expect(tray(page)).toHaveCount(2);
  await expect(tray(page).nth(1)).toContainText("blue.png");

  // Refusals: an SVG dropped, a 5 MiB PNG picked. Nothing is added; the alert says why and what to do.
  await transfer(page, "drop", { name: "logo.svg", type: "image/svg+xml", base64: btoa("<svg/>") });
  await expect(attachAlert(page)).toHaveText(`${SVG_REFUSED}Dismiss`);
  await pickFiles(page, [{ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(5 * 1024 * 1024) }]);
  await expect(attachAlert(page)).toHaveText(`${TOO_LARGE}Dismiss`);
  await expect(tray(page)).toHaveCount(2);
  await page.getByRole("button", { name: "Dismiss", exact: true }).click();
  await expect(attachAlert(page)).toHaveCount(0);

  // Remove and attach again (a drop this time).
  await page.getByRole("button", { name: "Remove blue.png", exact: true }).click();
  await expect(tray(page)).toHaveCount(1);
  // Files dragged over the composer mark it as the drop target until they are dropped.
  const form = page.getByRole("form", { name: "Composer" });
  await transfer(page, "dragover", { name: "blue.png", type: "image/png", base64: BLUE });
  await expect(form).toHaveClass("composer composer-dropping");
  await transfer(page, "drop", { name: "blue.png", type: "image/png", base64: BLUE });
  await expect(form).toHaveClass("composer");
  await expect(tray(page)).toHaveCount(2);
  await shot(page, "attachments-tray");

  // A send whose request fails: text and images stay in the composer.
  await composer(page).fill("What is in these images?");
  await page.route("**/api/sessions/*/prompt", (route) => route.abort("connectionrefused"), { times: 1 });
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(composer(page)).toHaveValue("What is in these images?");
  await expect(tray(page)).toHaveCount(2);
  expect(anthropicRequests(await mock.requests())).toHaveLength(0);

  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("A red square and a blue one.");
  await expectIdle(page);
  await expect(tray(page)).toHaveCount(0);
  await expect(composer(page)).toHaveValue("");

  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(1);
  const user = messagesOf(requests[0])
    .filter((m) => m.role === "user")
    .at(-1);
  expect(user?.content).toEqual([
    { type: "text", text: "What is in these images?" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: RED } },
    { type: "image", source: { type: "base64", media_type: "image/png", data: BLUE } },
  ]);

  // The chat shows the images, live and after a reload.
  const shown = async () => {
    const message = page.getByTestId("message-user").last();
    await expect(message.locator(".message-text")).toHaveText("What is in these images?");
    const images = message.getByRole("list", { name: "Images" }).getByRole("img");
    await expect(images).toHaveCount(2);
    await expect(images.nth(0)).toHaveAttribute("alt", "Attachment 1 of 2, image/png");
    await expect(images.nth(0)).toHaveAttribute("src", `data:image/png;base64,${RED}`);
    await expect(images.nth(1)).toHaveAttribute("src", `data:image/png;base64,${BLUE}`);
    // Decoded and drawn: an 8x8 image.
    expect(await images.nth(1).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
  };
  await shown();
  await shot(page, "attachments-sent");
  await page.reload();
  await expect(page.getByTestId("message-assistant").last()).toContainText("A red square and a blue one.");
  await shown();
});

test("a model without image input: the composer says what happens; the provider gets pi's placeholder", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script({ text: "I only read text." });
  await openProject(page, uniqueName("text-only"), { "README.md": "# Text only\n" });

  await page.getByLabel("Model").selectOption("anthropic/claude-text-only");
  await pickFiles(page, [png("red.png", RED)]);
  await composer(page).fill("Describe it");
  await expect(page.getByRole("note").filter({ hasText: "has no image input" })).toHaveText(TEXT_ONLY_NOTICE);
  await shot(page, "attachments-text-only");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("I only read text.");

  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(1);
  expect((requests[0].body as { model: string }).model).toBe("claude-text-only");
  expect(
    messagesOf(requests[0])
      .filter((m) => m.role === "user")
      .at(-1)?.content,
  ).toEqual([
    { type: "text", text: "Describe it" },
    { type: "text", text: "(image omitted: model does not support images)" },
  ]);
  // Stored with the image: the chat still shows it.
  await expect(page.getByTestId("message-user").last().getByRole("img")).toHaveAttribute(
    "src",
    `data:image/png;base64,${RED}`,
  );
});
