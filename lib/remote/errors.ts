/**
 * Errors of getting work out (archive, push, pull), each with the HTTP status and code `lib/http/errors.ts`
 * answers it with, and the translation of isomorphic-git's and the transport's errors into texts that say what
 * happened and what to do. Every text passes {@link maskCredential}, so a credential never reaches a response.
 */
import { StrataError } from "@/lib/errors/strata-error";
import type { GitCredential } from "@/lib/secrets/git-credentials";

export class RemoteError extends StrataError {
  constructor(
    status: number,
    code: string,
    message: string,
    /** Project-relative paths the refusal is about (a pull's uncommitted or conflicting files). */
    readonly paths?: string[],
  ) {
    super(status, code, message, paths ? { details: { paths } } : {});
    this.name = "RemoteError";
  }
}

/** What a masked credential reads as. */
export const MASK = "***";

/**
 * `text` with `credential`'s token (and user name, when 4 characters or longer: a shorter one would mask ordinary
 * words) replaced by `***`, and any URL user info (`//user:pass@`) too.
 */
export function maskCredential(text: string, credential?: GitCredential | null): string {
  let out = text.replace(/\/\/[^/@\s]+@/g, `//${MASK}@`);
  if (credential?.password) out = out.split(credential.password).join(MASK);
  if (credential && credential.username.length >= 4) out = out.split(credential.username).join(MASK);
  return out;
}

/** Push or pull: the verb of the texts. */
export type RemoteOperation = "push" | "pull";

/** The one text of a refused or unreachable remote (never says which: see lib/net/git-http.ts). */
export const remoteUnreachable = (op: RemoteOperation) =>
  `${op === "push" ? "Push" : "Pull"} failed: the remote could not be reached (its host name did not resolve, it did not answer, or it is not a public http(s) host; private addresses need STRATA_GIT_IMPORT_ALLOW_PRIVATE). Check the URL and that this server can reach it.`;

interface GitErrorShape {
  code?: string;
  name?: string;
  message?: string;
  data?: { statusCode?: number; statusMessage?: string; reason?: string; prettyDetails?: string };
}

/**
 * A clear {@link RemoteError} for a failed push or pull (`host` the remote's host, `branch` the remote branch,
 * `credential` the one that was offered, if any). 401/403 → 401 `remote_auth` saying whether a credential was
 * used and where to set it; 404 → 404 `remote_not_found`; a non-fast-forward → 409 `push_rejected`; an unreachable
 * or refused remote → 502 `remote_unreachable` with the one generic text; anything else 502 `remote_failed`.
 */
export function remoteFailure(
  op: RemoteOperation,
  error: unknown,
  ctx: { host: string; branch: string; credential: GitCredential | null },
): RemoteError {
  if (error instanceof RemoteError) return error;
  const e = (error ?? {}) as GitErrorShape;
  const Op = op === "push" ? "Push" : "Pull";
  const settings = "Workspace settings → Git credentials";
  const make = (status: number, code: string, text: string) =>
    new RemoteError(status, code, maskCredential(text, ctx.credential));
  if (e.code === "GitImportUnreachable") return make(502, "remote_unreachable", remoteUnreachable(op));
  if (e.code === "HttpError" && e.data?.statusCode) {
    const status = e.data.statusCode;
    const http = `HTTP ${status}${e.data.statusMessage ? ` ${e.data.statusMessage}` : ""}`;
    if (status === 401 || status === 403) {
      const text = ctx.credential
        ? `${Op} failed: ${ctx.host} refused the credential stored for it (${http}). Check the user name and token in ${settings}${op === "push" ? "; the token needs write access to the repository" : ""}.`
        : `${Op} failed: ${ctx.host} asks for credentials (${http}) and none is stored for it. A workspace owner or admin can add one in ${settings}.`;
      return make(401, "remote_auth", text);
    }
    if (status === 404)
      return make(
        404,
        "remote_not_found",
        `${Op} failed: the repository was not found on ${ctx.host} (${http}). Check the URL; a private repository may also answer 404 without a valid credential.`,
      );
    return make(502, "remote_failed", `${Op} failed: ${ctx.host} answered ${http}.`);
  }
  if (e.code === "PushRejectedError")
    return make(
      409,
      "push_rejected",
      e.data?.reason === "tag-exists"
        ? `Push rejected: the tag already exists on ${ctx.host}.`
        : `Push rejected: ${ctx.branch} on ${ctx.host} has commits that are not in what you push (not a fast-forward). Pull first, push to a new branch name, or push with "Overwrite the remote branch" (force).`,
    );
  if (e.code === "GitPushError")
    return make(
      409,
      "push_rejected",
      `Push rejected by ${ctx.host}: ${e.data?.prettyDetails ?? e.message ?? "the branch was not updated"}.`,
    );
  if (e.code === "NotFoundError" && op === "pull")
    return make(
      404,
      "remote_branch_not_found",
      `Pull failed: there is no branch ${ctx.branch} on ${ctx.host}.`,
    );
  if (e.code === "SmartHttpError" || e.code === "ParseError" || e.code === "UnknownTransportError")
    return make(502, "remote_failed", `${Op} failed: ${ctx.host} did not answer as a git smart-HTTP server.`);
  if (e.name === "GitResponseTooLargeError" || e.name === "GitImportDeadlineError")
    return make(502, "remote_failed", `${Op} failed: ${e.message}.`);
  return make(502, "remote_failed", `${Op} failed: ${e.message ?? String(error)}`);
}
