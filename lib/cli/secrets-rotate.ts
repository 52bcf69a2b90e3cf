/**
 * The database side of `strata secrets rotate` (bin/commands/secrets.mjs), loaded through tsx: every workspace
 * secret not under the current key is re-encrypted with it (lib/secrets `rotateSecrets`).
 */
import { DbScope } from "@/lib/db/client";
import type { Env } from "@/lib/llm/models";
import { type RotationResult, rotateSecrets } from "@/lib/secrets";

export { setNodeWebSocket } from "@/lib/db/client";
export { SecretsError } from "@/lib/secrets";

/**
 * Rotate every row with the key variables of `env` (`STRATA_SECRETS_KEY`, `STRATA_SECRETS_KEY_PREVIOUS`).
 * @throws SecretsError with what to do (missing/invalid key, a row under a key in neither variable).
 */
export async function rotateAll(env: Env): Promise<RotationResult> {
  const scope = new DbScope();
  try {
    return await rotateSecrets(scope, env);
  } finally {
    await scope.release();
  }
}
