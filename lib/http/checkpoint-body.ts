/** Request bodies shared by the checkpoint routes (docs/checkpoints.md): editor buffers and the caller's identity. */
import { z } from "zod";
import type { Caller } from "@/lib/auth/caller";

/** Unsaved editor buffers (project-relative path, text) to keep before files change: at most 200. */
export const Buffers = z
  .array(
    z.object({
      path: z
        .string()
        .min(1)
        .max(4096)
        .regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$)).*$/, "a project-relative path without .."),
      content: z.string(),
    }),
  )
  .max(200)
  .optional();

/** The checkpoint author and user of a caller. */
export const actorOf = (caller: Caller) => ({
  author: { name: caller.name, email: caller.email },
  userId: caller.userId,
});
