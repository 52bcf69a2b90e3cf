/**
 * The provider environment of a run: the server environment with the workspace's secrets laid over it. Precedence,
 * per variable: a workspace secret wins; else the server environment — but a workspace base URL never receives the
 * server's key for that provider, and is used only on a host the server allows (./base-url.ts). Every other variable (`STRATA_MODELS`,
 * `*_BASE_URL` not set as a secret, …) comes from the server environment unchanged. Routes build it once and pass it
 * down as the `env` every model function already takes, so nothing below reads `process.env`.
 */

import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import type { Env } from "@/lib/llm/models";
import { PROVIDER_ENV } from "@/lib/llm/provider-env";
import { refusedSettingVar } from "@/lib/llm/providers";
import { isAllowedBaseUrl, isBaseUrlName, refusedBaseUrlMessage } from "./base-url";
import { getSecretValues } from "./store";

/** What a refused base-URL secret becomes in the env (`.invalid` never resolves, RFC 6761), never requested. */
export const REFUSED_BASE_URL = "https://refused.invalid/v1";

/** An environment map for model resolution and provider calls (server env + workspace secrets). */
export type ProviderEnv = Env;

/**
 * `serverEnv` with `workspaceId`'s secrets over it (a new object; `serverEnv` is not changed). The key ring is read
 * from `serverEnv`. @throws SecretsError (500) when a stored secret cannot be decrypted.
 */
export async function workspaceProviderEnv(
  scope: DbScope,
  workspaceId: string,
  serverEnv: Env,
): Promise<ProviderEnv> {
  const secrets = await getSecretValues(scope, workspaceId, serverEnv);
  return Object.keys(secrets).length === 0 ? serverEnv : overlaySecrets(serverEnv, secrets);
}

/**
 * `serverEnv` with `secrets` over it, except that a provider whose base URL is a workspace secret never gets the
 * server's API key: the key goes only to the server's own base URL. Without this, anyone who owns a workspace (every
 * user, of their personal one) could set `OPENAI_COMPATIBLE_BASE_URL` to their own host and receive the server's
 * `OPENAI_COMPATIBLE_API_KEY` in the `Authorization` header of the next prompt.
 *
 * A base-URL secret is used only while its host is allowed (`STRATA_WORKSPACE_BASE_URL_HOSTS`, ./base-url.ts, read
 * from `serverEnv`): one stored before the host left the list is replaced by {@link REFUSED_BASE_URL} and marked
 * refused, so the next model call fails with {@link refusedBaseUrlMessage} in the chat and calls nothing.
 */
export function overlaySecrets(serverEnv: Env, secrets: Record<string, string>): ProviderEnv {
  const env: ProviderEnv = { ...serverEnv, ...secrets };
  for (const vars of Object.values(PROVIDER_ENV))
    if (vars.baseURL in secrets && !(vars.apiKey in secrets)) delete env[vars.apiKey];
  for (const [name, value] of Object.entries(secrets)) {
    if (!isBaseUrlName(name) || isAllowedBaseUrl(value, serverEnv)) continue;
    // Not the stored URL, and not the server's own either (no silent fallback): the provider stays configured so the
    // model resolves, and the call fails with the reason (lib/llm/providers.ts) before any request is sent.
    env[name] = REFUSED_BASE_URL;
    env[refusedSettingVar(name)] = refusedBaseUrlMessage(name);
  }
  return env;
}

async function workspaceOf(scope: DbScope, sql: string, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  const rows = await scope.query<{ workspace_id: string }>(sql, [id]);
  return rows[0]?.workspace_id ?? null;
}

/** {@link workspaceProviderEnv} for the workspace of project `projectId` (`serverEnv` when there is no such project). */
export async function projectProviderEnv(
  scope: DbScope,
  projectId: string,
  serverEnv: Env,
): Promise<ProviderEnv> {
  const workspaceId = await workspaceOf(scope, "SELECT workspace_id FROM projects WHERE id = $1", projectId);
  return workspaceId ? workspaceProviderEnv(scope, workspaceId, serverEnv) : serverEnv;
}

/** {@link workspaceProviderEnv} for the workspace of session `sessionId`'s project (`serverEnv` when none). */
export async function sessionProviderEnv(
  scope: DbScope,
  sessionId: string,
  serverEnv: Env,
): Promise<ProviderEnv> {
  const workspaceId = await workspaceOf(
    scope,
    "SELECT p.workspace_id FROM sessions s JOIN projects p ON p.id = s.project_id WHERE s.id = $1",
    sessionId,
  );
  return workspaceId ? workspaceProviderEnv(scope, workspaceId, serverEnv) : serverEnv;
}
