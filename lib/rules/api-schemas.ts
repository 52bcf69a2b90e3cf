/** Request bodies of the rules routes (zod; server only). */
import { z } from "zod";

const Change = z.object({ path: z.string().min(1).max(4096), content: z.string().nullable() }).strict();

/** PUT /rules/file: the whole new content and an optional commit message. */
export const WriteFileBody = z
  .object({ content: z.string(), message: z.string().max(2000).optional() })
  .strict();

/** DELETE /rules/file: an optional body with a commit message. */
export const DeleteFileBody = z.object({ message: z.string().max(2000).optional() }).strict();

/** POST /rules/proposals. */
export const CreateProposalBody = z
  .object({ title: z.string(), description: z.string().optional(), changes: z.array(Change).min(1).max(200) })
  .strict();

/** PATCH /rules/proposals/[pid]: new changes (a commit on the branch) and/or title/description, or a withdrawal. */
export const PatchProposalBody = z
  .object({
    title: z.string().optional(),
    description: z.string().optional(),
    changes: z.array(Change).max(200).optional(),
    status: z.literal("withdrawn").optional(),
  })
  .strict();

/** POST /rules/proposals/[pid]/comments. */
export const CommentBody = z.object({ body: z.string() }).strict();

/** POST /rules/proposals/[pid]/reject. */
export const RejectBody = z.object({ reason: z.string().max(20_000).optional() }).strict();

export const ProposalStatusQuery = z.enum(["open", "approved", "rejected", "withdrawn"]).optional();
