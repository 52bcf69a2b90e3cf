/**
 * Mock scopes: how one mock provider serves tests that run at the same time without either seeing the other's
 * turns or requests. A test gives its workspace provider keys that carry `mock-scope-<id>`
 * ({@link mockScopeKey}); the app sends that key with every model request (`x-api-key` for Anthropic, the bearer
 * token for OpenAI), and the mock files the request under scope `<id>` ({@link scopeOfKey}). The test scripts
 * and reads the same scope through the control API's `?scope=<id>`.
 */

/** The scope of requests whose key names none, and of control calls without `?scope=`. */
export const DEFAULT_SCOPE = "default";

const MARKER = "mock-scope-";
const SCOPE_ID = /^[A-Za-z0-9_-]{1,80}$/;

/** Whether `id` can name a scope: 1–80 of `A-Z a-z 0-9 _ -`. */
export function isScopeId(id: string): boolean {
  return SCOPE_ID.test(id);
}

/**
 * A provider API key that files its requests under scope `id`, in the shape of that provider's keys
 * (`sk-ant-…` for Anthropic, `sk-…` otherwise). @throws Error when `id` is not a scope id.
 */
export function mockScopeKey(id: string, provider: "anthropic" | "openai" | "other" = "other"): string {
  if (!isScopeId(id)) throw new Error(`not a mock scope id: ${JSON.stringify(id)}`);
  return `${provider === "anthropic" ? "sk-ant-" : "sk-"}${MARKER}${id}`;
}

/** The scope a request's API key names: the id after `mock-scope-` (up to the key's end), else the default. */
export function scopeOfKey(key: string | undefined): string {
  if (!key) return DEFAULT_SCOPE;
  const at = key.indexOf(MARKER);
  if (at < 0) return DEFAULT_SCOPE;
  const id = key.slice(at + MARKER.length);
  return isScopeId(id) ? id : DEFAULT_SCOPE;
}
