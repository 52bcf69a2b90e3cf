/**
 * The remote a user names for a push or pull: an http(s) URL without credentials in it (a URL with `user:password@`
 * is refused, so a token never travels through a request body, a log line or the IDE's history: it belongs in the
 * workspace's git credentials), its host, and the credential stored for that host. `authCallbacks` hands the
 * credential to isomorphic-git only when the server asks (HTTP 401).
 */
import type { AuthCallback, AuthFailureCallback } from "isomorphic-git";
import type { DbScope } from "@/lib/db/client";
import type { Env } from "@/lib/llm/models";
import { type GitCredential, getGitCredential } from "@/lib/secrets/git-credentials";
import { RemoteError } from "./errors";

/** A remote ready for a push or pull. */
export interface Remote {
  url: string;
  /** `new URL(url).host`: lower-case host with a non-default port, the key of the workspace's credentials. */
  host: string;
  credential: GitCredential | null;
}

/** Longest remote URL accepted. */
export const MAX_REMOTE_URL = 2048;

/**
 * Check a remote URL: http(s), at most {@link MAX_REMOTE_URL} characters, no user name or password in it.
 * @returns the URL (as given) and its host.
 * @throws RemoteError 400 `invalid_remote` / `credentials_in_url` (never quoting the URL's user info).
 */
export function parseRemoteUrl(raw: string): { url: string; host: string } {
  let url: URL;
  try {
    if (raw.length > MAX_REMOTE_URL) throw new Error("too long");
    url = new URL(raw);
  } catch {
    throw new RemoteError(
      400,
      "invalid_remote",
      "The remote URL is not a valid URL. Use the repository's https:// address, e.g. https://github.com/owner/repo.git.",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RemoteError(
      400,
      "invalid_remote",
      `Only http(s) remotes are supported (got ${url.protocol.slice(0, 20)}); use the repository's https:// address.`,
    );
  if (url.username || url.password)
    throw new RemoteError(
      400,
      "credentials_in_url",
      `The remote URL contains a user name or password. Remove them from the URL and store them as the git credential for ${url.host} in Workspace settings → Git credentials (encrypted, never shown again).`,
    );
  return { url: raw, host: url.host };
}

/** {@link parseRemoteUrl} plus the credential the workspace stores for the URL's host (null when none). */
export async function openRemote(
  scope: DbScope,
  workspaceId: string,
  rawUrl: string,
  env: Env = process.env,
): Promise<Remote> {
  const { url, host } = parseRemoteUrl(rawUrl);
  return { url, host, credential: await getGitCredential(scope, workspaceId, host, env) };
}

/**
 * isomorphic-git's auth hooks for `remote`: the stored credential on the server's first 401, nothing more (a second
 * 401 fails the operation, reported by `remoteFailure`). No hooks without a credential.
 */
export function authCallbacks(remote: Remote): {
  onAuth?: AuthCallback;
  onAuthFailure?: AuthFailureCallback;
} {
  const credential = remote.credential;
  if (!credential) return {};
  return {
    onAuth: () => ({ username: credential.username, password: credential.password }),
    onAuthFailure: () => undefined,
  };
}
