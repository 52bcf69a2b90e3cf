/**
 * Git credentials of a workspace: one per remote host (`github.com`, `git.example.com:8443`), a user name and a
 * token or password, for pushes and pulls (lib/remote). Stored in `workspace_secrets` as row `git:<host>` with the
 * same AES-256-GCM sealing as provider keys (the name is in the additional authenticated data, so a row copied to
 * another host or workspace does not decrypt; key rotation covers them). They never reach a provider environment
 * (`getSecretValues` skips `git:` rows) and listings carry the host, time and author only, never the user name or
 * the token. Callers authorise first (`manage` to change or list; a push/pull of a project of the workspace reads one).
 */
import type { DbScope } from "@/lib/db/client";
import type { Env } from "@/lib/llm/models";
import { keyRing, SecretsError, seal, unseal } from "./crypto";
import { type GitCredential, gitCredentialProblem, gitHostProblem } from "./git-credential-checks";
import { GIT_CREDENTIAL_PREFIX } from "./names";
import { sealedOf, sealedRows } from "./store";

export { type GitCredential, gitCredentialProblem, gitHostProblem };

/** A stored git credential as listings show it: never the user name or token. */
export interface GitCredentialInfo {
  host: string;
  updatedAt: string;
  updatedBy: string | null;
}

const rowName = (host: string) => `${GIT_CREDENTIAL_PREFIX}${host}`;
const iso = (value: unknown) => new Date(value as string | Date).toISOString();

function checkHost(host: string): void {
  const problem = gitHostProblem(host);
  if (problem) throw new SecretsError(400, "invalid_git_host", problem);
}

/**
 * Store (insert or replace) the credential for `host` in `workspaceId`, encrypted under the current key.
 * @throws SecretsError 400 `invalid_git_host` / `invalid_git_credential` (never quoting the values); 500 for a
 *   missing or invalid `STRATA_SECRETS_KEY`.
 */
export async function setGitCredential(
  scope: DbScope,
  workspaceId: string,
  host: string,
  credential: GitCredential,
  userId: string,
  env: Env = process.env,
): Promise<GitCredentialInfo> {
  checkHost(host);
  const problem = gitCredentialProblem(credential);
  if (problem) throw new SecretsError(400, "invalid_git_credential", problem);
  const value = JSON.stringify({ username: credential.username, password: credential.password });
  const sealed = await seal(await keyRing(env), workspaceId, rowName(host), value);
  await scope.query(
    `INSERT INTO workspace_secrets (workspace_id, name, ciphertext, iv, key_id, updated_by, updated_at)
     VALUES ($1, $2, decode($3, 'base64'), decode($4, 'base64'), $5, $6, now())
     ON CONFLICT (workspace_id, name) DO UPDATE SET ciphertext = EXCLUDED.ciphertext, iv = EXCLUDED.iv,
       key_id = EXCLUDED.key_id, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [workspaceId, rowName(host), sealed.ciphertext, sealed.iv, sealed.keyId, userId],
  );
  const info = (await listGitCredentials(scope, workspaceId)).find((c) => c.host === host);
  if (!info) throw new Error(`git credential for ${host} vanished right after it was stored`);
  return info;
}

/** Delete the credential for `host`. @throws SecretsError 404 `not_found` when there is none. */
export async function deleteGitCredential(scope: DbScope, workspaceId: string, host: string): Promise<void> {
  checkHost(host);
  const rows = await scope.query<{ name: string }>(
    "DELETE FROM workspace_secrets WHERE workspace_id = $1 AND name = $2 RETURNING name",
    [workspaceId, rowName(host)],
  );
  if (rows.length === 0)
    throw new SecretsError(404, "not_found", `No git credential is stored for ${host} in this workspace.`);
}

/** The hosts with a stored credential (A→Z), with the last change and its author. */
export async function listGitCredentials(scope: DbScope, workspaceId: string): Promise<GitCredentialInfo[]> {
  const rows = await scope.query<{ name: string; updated_at: unknown; updated_by: string | null }>(
    `SELECT s.name, s.updated_at, u.name AS updated_by FROM workspace_secrets s
     LEFT JOIN users u ON u.id = s.updated_by
     WHERE s.workspace_id = $1 AND s.name LIKE '${GIT_CREDENTIAL_PREFIX}%' ORDER BY s.name`,
    [workspaceId],
  );
  return rows.map((r) => ({
    host: r.name.slice(GIT_CREDENTIAL_PREFIX.length),
    updatedAt: iso(r.updated_at),
    updatedBy: r.updated_by,
  }));
}

/** Whether a credential is stored for `host` (no decryption, no key needed). */
export async function hasGitCredential(scope: DbScope, workspaceId: string, host: string): Promise<boolean> {
  const rows = await scope.query<{ name: string }>(
    "SELECT name FROM workspace_secrets WHERE workspace_id = $1 AND name = $2",
    [workspaceId, rowName(host)],
  );
  return rows.length > 0;
}

/**
 * SERVER ONLY: the decrypted credential for `host`, or null when none is stored.
 * @throws SecretsError 500 for a missing key, a key id in neither key variable, or a tampered ciphertext.
 */
export async function getGitCredential(
  scope: DbScope,
  workspaceId: string,
  host: string,
  env: Env = process.env,
): Promise<GitCredential | null> {
  const rows = await sealedRows(scope, "WHERE workspace_id = $1 AND name = $2", [workspaceId, rowName(host)]);
  if (rows.length === 0) return null;
  const value = await unseal(await keyRing(env), workspaceId, rows[0].name, sealedOf(rows[0]));
  const parsed = JSON.parse(value) as GitCredential;
  return { username: String(parsed.username), password: String(parsed.password) };
}
