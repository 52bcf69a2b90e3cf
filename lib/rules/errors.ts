/**
 * Typed errors of the rules layer; lib/http/errors.ts answers each with its `status` and `code`
 * (`{ error: { code, message } }`). Every message says what to do next.
 */

import { StrataError } from "@/lib/errors/strata-error";

/** Base class: an HTTP status and a machine-readable code. */
export class RulesError extends StrataError {
  declare readonly status: 400 | 403 | 404 | 409 | 413;
  constructor(status: 400 | 403 | 404 | 409 | 413, code: string, message: string) {
    super(status, code, message);
    this.name = "RulesError";
  }
}

/** 404 `not_found`: no such proposal in this workspace, no such rules file, or a workspace without team rules. */
export class RulesNotFoundError extends RulesError {
  constructor(message: string) {
    super(404, "not_found", message);
    this.name = "RulesNotFoundError";
  }
}

/**
 * 409 `conflict`: main changed some of a proposal's paths since it was branched (`paths`, relative to the rules
 * root), or a concurrent writer kept winning.
 */
export class RulesConflictError extends RulesError {
  constructor(
    readonly paths: string[],
    message = `main changed ${paths.join(", ")} since this proposal; the author must update it.`,
  ) {
    super(409, "conflict", message);
    this.name = "RulesConflictError";
  }
}

/** 409 `invalid_state`: the proposal is no longer open (approved, rejected or withdrawn). */
export class RulesStateError extends RulesError {
  constructor(message: string) {
    super(409, "invalid_state", message);
    this.name = "RulesStateError";
  }
}

/** 400 `bad_request` (or 413 `efbig` for content over the file limit): a change the rules root cannot take. */
export class RulesInputError extends RulesError {
  constructor(message: string, status: 400 | 413 = 400) {
    super(status, status === 413 ? "efbig" : "bad_request", message);
    this.name = "RulesInputError";
  }
}

/** 403 `forbidden`: only the proposal's author may update or withdraw it. */
export class RulesForbiddenError extends RulesError {
  constructor(message: string) {
    super(403, "forbidden", message);
    this.name = "RulesForbiddenError";
  }
}

/** The message of the 403 a member meets on a direct change of the rules root. */
export const DIRECT_CHANGE_FORBIDDEN =
  "Only owners and admins change the team rules directly; propose the change instead.";
