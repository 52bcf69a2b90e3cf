/** The zod schema of a prompt's `images` (server only: zod stays out of the browser bundle, see prompt-images.ts). */
import { z } from "zod";
import { checkPromptImages, MAX_PROMPT_IMAGES, MAX_PROMPT_IMAGES_TOTAL_BYTES } from "./prompt-images";

/** The `images` of a prompt request body: pi's `ImageContent[]`, checked by {@link checkPromptImages}. */
export const PromptImagesSchema = z
  .array(
    z.object({
      type: z.literal("image"),
      data: z.string().max(Math.ceil(MAX_PROMPT_IMAGES_TOTAL_BYTES / 3) * 4),
      mimeType: z.string().max(100),
    }),
  )
  .max(MAX_PROMPT_IMAGES * 10)
  .superRefine((images, ctx) => {
    for (const message of checkPromptImages(images)) ctx.addIssue({ code: "custom", message });
  });
