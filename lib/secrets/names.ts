/**
 * Which workspace secrets exist and what a valid value is. Zod-free, so the settings page (components/secrets) can
 * show the same list and checks the server applies.
 */
import { PROVIDER_ENV } from "@/lib/llm/provider-env";

/** Names of git credentials in `workspace_secrets` start with this (`git:<host>`, ./git-credentials.ts). */
export const GIT_CREDENTIAL_PREFIX = "git:";

/** Longest value accepted (characters). */
export const SECRET_VALUE_MAX = 4096;

/**
 * The names a workspace may set: every provider's API key variable and `OPENAI_COMPATIBLE_BASE_URL` (the
 * openai-compatible provider is configured by its base URL), in `PROVIDER_ENV` order.
 */
export const SECRET_NAMES: readonly string[] = Object.values(PROVIDER_ENV).flatMap((vars) =>
  vars.requires === "baseURL" ? [vars.baseURL, vars.apiKey] : [vars.apiKey],
);

/** True when `name` is one of {@link SECRET_NAMES}. */
export function isSecretName(name: string): boolean {
  return SECRET_NAMES.includes(name);
}

/** Why `name` cannot be a workspace secret, or null when it can. */
export function secretNameProblem(name: string): string | null {
  if (isSecretName(name)) return null;
  return `${name.slice(0, 100)} is not a workspace secret Strata uses. Allowed names: ${SECRET_NAMES.join(", ")}.`;
}

/**
 * Why `value` cannot be stored as secret `name`, or null when it can: empty or blank, longer than
 * {@link SECRET_VALUE_MAX} characters, containing control characters (a line break would break the HTTP header it
 * is sent in), or, for a base URL, not an https:// URL (which hosts the server allows is checked on the server:
 * `base-url.ts`). The text never quotes the value.
 */
export function secretValueProblem(name: string, value: string): string | null {
  if (value.trim() === "") return "The value is empty. Paste the key (or URL) to store.";
  if (value.length > SECRET_VALUE_MAX)
    return `The value is ${value.length} characters long; at most ${SECRET_VALUE_MAX} are accepted.`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value))
    return "The value contains a line break, tab or other control character; paste it again without them.";
  if (value !== value.trim()) return "The value starts or ends with spaces; paste it again without them.";
  if (name.endsWith("_BASE_URL")) {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      url = null;
    }
    if (url?.protocol !== "https:" || url.hostname === "")
      return `${name} must be an https:// URL, e.g. https://api.example.com/v1.`;
  }
  return null;
}
