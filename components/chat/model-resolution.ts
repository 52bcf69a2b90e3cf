/** Which model the picker shows: pure, so the order is unit-tested (tests/unit/components/model-resolution.test.ts). */

export interface ModelChoiceInput {
  /** The server's model ids (`provider/id`). */
  available: readonly string[];
  /** The session's current model (its last `model_change` or assistant message), null for a session without one. */
  sessionModel: string | null;
  /** The model chosen last in this browser (pi's default model in settings), if any. */
  remembered: string | null;
  /** The server's default (`STRATA_DEFAULT_MODEL`, else its first model). */
  defaultModel: string | null;
}

/**
 * The picker's model: the session's own model when the server offers it (an existing session wins), else the
 * one chosen last in this browser, else the server's default, else its first model, else `""` (none configured).
 */
export function resolveModelChoice(input: ModelChoiceInput): string {
  const known = (id: string | null) => (id && input.available.includes(id) ? id : null);
  return (
    known(input.sessionModel) ??
    known(input.remembered) ??
    known(input.defaultModel) ??
    input.available[0] ??
    ""
  );
}
