/**
 * What a git credential may be (lib/secrets/git-credentials.ts): the host it is for and its user name and token.
 * Zod-free and without I/O, so the settings page (components/git-remote) applies the same checks as the server.
 */
import { SECRET_VALUE_MAX } from "./names";

/** A git credential: HTTP Basic user name and token (or password). */
export interface GitCredential {
  username: string;
  password: string;
}

const LABEL = "(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)";
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])(?::[0-9]{1,5})?$`);

/**
 * Why `host` cannot name a git credential, or null when it can: a lower-case host name or bracketed IPv6 address,
 * with an optional port, exactly as `new URL(remote).host` spells it (`github.com`, `127.0.0.1:4302`).
 */
export function gitHostProblem(host: string): string | null {
  if (host.length > 260 || !HOST.test(host))
    return `${host.slice(0, 100)} is not a host name. Use the host of the remote URL, e.g. github.com or git.example.com:8443 (lower case, no scheme, user or path).`;
  return null;
}

/** Why `username` / `password` cannot be stored, or null. The text never quotes them. */
export function gitCredentialProblem(credential: GitCredential): string | null {
  const { username, password } = credential;
  if (username === "" || password === "")
    return "Enter both a user name and a token (or password). For a token-only host, any user name works (e.g. git).";
  if (username.length > 256) return "The user name is longer than 256 characters.";
  if (username.includes(":")) return "The user name must not contain a colon.";
  if (password.length > SECRET_VALUE_MAX)
    return `The token is ${password.length} characters long; at most ${SECRET_VALUE_MAX} are accepted.`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(username + password))
    return "The user name or token contains a line break, tab or other control character; paste it again without them.";
  return null;
}
