// `strata secrets rotate`: re-encrypt every workspace secret under the current key (docs/secrets.md).
import { readSecrets, stateDir } from "../../scripts/local-db.mjs";
import { CliError, root, withDatabase, write } from "../lib/runtime.mjs";

const LIB = "lib/cli/secrets-rotate.ts";

export const usage = `Usage:
  strata secrets rotate
      Re-encrypt every workspace secret under STRATA_SECRETS_KEY. Secrets still under an old key are read
      with the keys of STRATA_SECRETS_KEY_PREVIOUS (comma-separated). Without STRATA_SECRETS_KEY in the
      environment, the keys of the embedded default's .strata/secrets.json are used. See docs/secrets.md.`;

/** The key variables: `env`'s, else (each unset one) .strata/secrets.json's. Never printed. */
function keyEnv(env) {
  const file = readSecrets(stateDir(root, env)) ?? {};
  const keys = {};
  for (const name of ["STRATA_SECRETS_KEY", "STRATA_SECRETS_KEY_PREVIOUS"]) {
    const value = env[name] ?? (typeof file[name] === "string" ? file[name] : undefined);
    if (value !== undefined) keys[name] = value;
  }
  return keys;
}

/**
 * Run `strata secrets <args…>` with `ctx` (bin/lib/main.mjs `CliContext`: streams, environment, module loader).
 * @throws CliError: a usage error (exit 2), or a failure (exit 1) such as a missing or invalid key
 */
export async function run(args, ctx) {
  const [sub, ...rest] = args;
  if (sub !== "rotate" || rest.length > 0) throw new CliError(usage, 2);
  const keys = keyEnv(ctx.env);
  const result = await withDatabase(ctx, LIB, async (lib) => {
    try {
      return await lib.rotateAll(keys);
    } catch (error) {
      if (error instanceof lib.SecretsError) throw new CliError(error.message);
      throw error;
    }
  });
  await write(
    ctx.stdout,
    `Re-encrypted ${result.rotated} secret${result.rotated === 1 ? "" : "s"} under key ${result.keyId}` +
      ` (${result.alreadyCurrent} already under it). STRATA_SECRETS_KEY_PREVIOUS is no longer needed.\n`,
  );
}
