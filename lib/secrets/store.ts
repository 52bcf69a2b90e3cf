/**
 * Workspace secrets in table `workspace_secrets` (one row per workspace and name: ciphertext, IV, key id, who
 * changed it last and when). Values go in through {@link setSecret} and come out only through
 * {@link getSecretValues}, which server code calls to build a provider environment; listings carry names only.
 * Callers authorise first (`manage` to change or list, the run's own workspace to read values).
 */
import type { DbScope } from "@/lib/db/client";
import type { Env } from "@/lib/llm/models";
import { baseUrlHostProblem } from "./base-url";
import { keyRing, type Sealed, SecretsError, seal, unseal } from "./crypto";
import { GIT_CREDENTIAL_PREFIX, secretNameProblem, secretValueProblem } from "./names";

/** Rows of provider secrets only: git credentials (`git:<host>`, ./git-credentials.ts) share the table. */
const PROVIDER_ROWS = `name NOT LIKE '${GIT_CREDENTIAL_PREFIX}%'`;

/** A secret as listings show it: never its value. */
export interface SecretInfo {
  name: string;
  /** ISO 8601 time of the last change. */
  updatedAt: string;
  /** The name of the user who changed it last, or null when that account is gone. */
  updatedBy: string | null;
}

interface Row {
  name: string;
  ciphertext: string;
  iv: string;
  key_id: string;
}

const iso = (value: unknown) => new Date(value as string | Date).toISOString();

/**
 * Store `value` as secret `name` of `workspaceId` (insert or replace), encrypted under the current key; `userId`
 * is recorded as its last author. `env` supplies the key ring and the hosts a base URL may name
 * (`STRATA_WORKSPACE_BASE_URL_HOSTS`, see ./base-url.ts; default: the server environment).
 * @returns the secret's listing entry.
 * @throws SecretsError 400 `invalid_secret_name` / `invalid_secret_value` (the message never quotes the value);
 *   500 for a missing or invalid `STRATA_SECRETS_KEY`.
 */
export async function setSecret(
  scope: DbScope,
  workspaceId: string,
  name: string,
  value: string,
  userId: string,
  env: Env = process.env,
): Promise<SecretInfo> {
  const nameProblem = secretNameProblem(name);
  if (nameProblem) throw new SecretsError(400, "invalid_secret_name", nameProblem);
  const valueProblem = secretValueProblem(name, value);
  if (valueProblem) throw new SecretsError(400, "invalid_secret_value", valueProblem);
  const hostProblem = baseUrlHostProblem(name, value, env);
  if (hostProblem) throw new SecretsError(400, "invalid_secret_value", hostProblem);
  const sealed = await seal(await keyRing(env), workspaceId, name, value);
  await scope.query(
    `INSERT INTO workspace_secrets (workspace_id, name, ciphertext, iv, key_id, updated_by, updated_at)
     VALUES ($1, $2, decode($3, 'base64'), decode($4, 'base64'), $5, $6, now())
     ON CONFLICT (workspace_id, name) DO UPDATE SET ciphertext = EXCLUDED.ciphertext, iv = EXCLUDED.iv,
       key_id = EXCLUDED.key_id, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [workspaceId, name, sealed.ciphertext, sealed.iv, sealed.keyId, userId],
  );
  const info = (await listSecretNames(scope, workspaceId)).find((s) => s.name === name);
  if (!info) throw new Error(`secret ${name} vanished right after it was stored`);
  return info;
}

/**
 * Delete secret `name` of `workspaceId`.
 * @throws SecretsError 404 `not_found` (`Secret <name> is not set in this workspace`) when there is none.
 */
export async function deleteSecret(scope: DbScope, workspaceId: string, name: string): Promise<void> {
  const rows = await scope.query<{ name: string }>(
    "DELETE FROM workspace_secrets WHERE workspace_id = $1 AND name = $2 RETURNING name",
    [workspaceId, name],
  );
  if (rows.length === 0)
    throw new SecretsError(404, "not_found", `Secret ${name.slice(0, 100)} is not set in this workspace.`);
}

/** The secrets of `workspaceId` by name (A→Z): name, last change and its author. Never values. */
export async function listSecretNames(scope: DbScope, workspaceId: string): Promise<SecretInfo[]> {
  const rows = await scope.query<{ name: string; updated_at: unknown; updated_by: string | null }>(
    `SELECT s.name, s.updated_at, u.name AS updated_by FROM workspace_secrets s
     LEFT JOIN users u ON u.id = s.updated_by WHERE s.workspace_id = $1 AND s.${PROVIDER_ROWS} ORDER BY s.name`,
    [workspaceId],
  );
  return rows.map((r) => ({ name: r.name, updatedAt: iso(r.updated_at), updatedBy: r.updated_by }));
}

export async function sealedRows(scope: DbScope, where: string, params: unknown[]) {
  return scope.query<Row & { workspace_id: string }>(
    `SELECT workspace_id, name, encode(ciphertext, 'base64') AS ciphertext, encode(iv, 'base64') AS iv, key_id
     FROM workspace_secrets ${where} ORDER BY workspace_id, name`,
    params,
  );
}

export const sealedOf = (row: Row): Sealed => ({
  ciphertext: row.ciphertext.replace(/\s+/g, ""),
  iv: row.iv.replace(/\s+/g, ""),
  keyId: row.key_id,
});

/**
 * SERVER ONLY: the decrypted secrets of `workspaceId` as `{ NAME: value }` (empty without rows; the key is needed
 * only when there are rows, so a server without `STRATA_SECRETS_KEY` still works while no secret is set).
 * @throws SecretsError 500 for a missing/invalid key, a key id in neither key variable, or a tampered ciphertext.
 */
export async function getSecretValues(
  scope: DbScope,
  workspaceId: string,
  env: Env = process.env,
): Promise<Record<string, string>> {
  const rows = await sealedRows(scope, `WHERE workspace_id = $1 AND ${PROVIDER_ROWS}`, [workspaceId]);
  if (rows.length === 0) return {};
  const ring = await keyRing(env);
  const values: Record<string, string> = {};
  for (const row of rows) values[row.name] = await unseal(ring, workspaceId, row.name, sealedOf(row));
  return values;
}

/** What {@link rotateSecrets} did: rows re-encrypted and rows already under the current key. */
export interface RotationResult {
  keyId: string;
  rotated: number;
  alreadyCurrent: number;
}

/**
 * Re-encrypt every row not under the current key (`STRATA_SECRETS_KEY`) with it; rows under a previous key must
 * still decrypt (their key in `STRATA_SECRETS_KEY_PREVIOUS`). Each row is updated only if it is unchanged since it
 * was read, so a concurrent `setSecret` is never overwritten. `updated_at`/`updated_by` stay (not a user change).
 * @throws SecretsError as {@link getSecretValues}; rows rotated before the error stay rotated (run it again).
 */
export async function rotateSecrets(scope: DbScope, env: Env = process.env): Promise<RotationResult> {
  const ring = await keyRing(env);
  const rows = await sealedRows(scope, "", []);
  let rotated = 0;
  let alreadyCurrent = 0;
  for (const row of rows) {
    if (row.key_id === ring.current.id) {
      alreadyCurrent++;
      continue;
    }
    const value = await unseal(ring, row.workspace_id, row.name, sealedOf(row));
    const sealed = await seal(ring, row.workspace_id, row.name, value);
    const updated = await scope.query<{ name: string }>(
      `UPDATE workspace_secrets SET ciphertext = decode($3, 'base64'), iv = decode($4, 'base64'), key_id = $5
       WHERE workspace_id = $1 AND name = $2 AND key_id = $6 AND iv = decode($7, 'base64') RETURNING name`,
      [row.workspace_id, row.name, sealed.ciphertext, sealed.iv, sealed.keyId, row.key_id, sealedOf(row).iv],
    );
    if (updated.length > 0) rotated++;
  }
  return { keyId: ring.current.id, rotated, alreadyCurrent };
}
