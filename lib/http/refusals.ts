/**
 * The typed refusals of renaming and deleting sessions and projects (lib/session/lifecycle.ts,
 * lib/projects/projects.ts) as API errors, for the routes that call them.
 */
import { ProjectRefusedError } from "@/lib/projects/projects";
import { LifecycleRefusedError, SessionGoneError } from "@/lib/session/lifecycle";
import { ApiError } from "./errors";

/**
 * Run `fn`; a refusal becomes an {@link ApiError} with its status, code and message (`SessionGoneError` → 404
 * `not_found` "Session <id> not found"); anything else is rethrown as it is.
 */
export async function withRefusals<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof LifecycleRefusedError || error instanceof ProjectRefusedError)
      throw new ApiError(error.status, error.code, error.message);
    if (error instanceof SessionGoneError) throw new ApiError(404, "not_found", error.message);
    throw error;
  }
}
