/** The session layer's errors that reach a user. */
import { StrataError } from "@/lib/errors/strata-error";

/** `Session <id> not found` (404 `not_found`): no such session, or one the caller may not see. */
export class SessionNotFoundError extends StrataError {
  constructor(sessionId: string) {
    super(404, "not_found", `Session ${sessionId} not found`);
    this.name = "SessionNotFoundError";
  }
}
