/**
 * Workspace secrets: provider keys (and the openai-compatible base URL) a workspace's owners and admins store in its
 * settings, encrypted at rest with AES-256-GCM through Web Crypto (edge-safe) under `STRATA_SECRETS_KEY` (rotation:
 * `STRATA_SECRETS_KEY_PREVIOUS` still decrypts, `npx strata secrets rotate` re-encrypts). `crypto.ts` is the key
 * ring and cipher, `names.ts` the allowed names and value checks, `base-url.ts` the hosts a workspace base URL may
 * name (`STRATA_WORKSPACE_BASE_URL_HOSTS`), `store.ts` the `workspace_secrets` table, and
 * `provider-env.ts` lays a workspace's secrets over the server environment for a run (workspace secret wins).
 * Values never leave the server: listings carry names, authors and times only. See docs/secrets.md.
 */
export { KEY_VAR, PREVIOUS_VAR, SecretsError } from "./crypto";
export {
  deleteGitCredential,
  type GitCredential,
  type GitCredentialInfo,
  getGitCredential,
  gitCredentialProblem,
  gitHostProblem,
  hasGitCredential,
  listGitCredentials,
  setGitCredential,
} from "./git-credentials";
export { isSecretName, SECRET_NAMES, SECRET_VALUE_MAX } from "./names";
export {
  type ProviderEnv,
  projectProviderEnv,
  sessionProviderEnv,
  workspaceProviderEnv,
} from "./provider-env";
export {
  deleteSecret,
  getSecretValues,
  listSecretNames,
  type RotationResult,
  rotateSecrets,
  type SecretInfo,
  setSecret,
} from "./store";
