/** Answer lib/auth/invite-links.ts's refusals with their status and code (`{ error: { code, message } }`). */
import { InviteLinkError } from "@/lib/auth/invite-links";
import { ApiError } from "@/lib/http/errors";

/** Run `fn`; an InviteLinkError becomes the ApiError `route()` answers. */
export async function inviteLinkRefusals<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof InviteLinkError) throw new ApiError(error.status, error.code, error.message);
    throw error;
  }
}
