/**
 * AES-256-GCM for workspace secrets through Web Crypto (`crypto.subtle`, so it runs on the edge runtime). The key
 * ring comes from the server environment: `STRATA_SECRETS_KEY` (base64 of 32 bytes) encrypts, and it plus every key
 * of `STRATA_SECRETS_KEY_PREVIOUS` (comma-separated, same format) decrypts. A key is named by its id, the first 8
 * hex digits of the SHA-256 of its bytes; errors name variables and key ids, never a key or a plaintext.
 */
import { StrataError } from "@/lib/errors/strata-error";
import type { Env } from "@/lib/llm/models";

/** The variable holding the current key. */
export const KEY_VAR = "STRATA_SECRETS_KEY";
/** The variable holding old keys that still decrypt (comma-separated). */
export const PREVIOUS_VAR = "STRATA_SECRETS_KEY_PREVIOUS";

/**
 * A failure of the secrets layer, with the HTTP status and code `lib/http/errors.ts` answers it with. The message
 * says what to do and never contains a key or a secret value.
 */
export class SecretsError extends StrataError {
  declare readonly status: 400 | 404 | 500;
  constructor(status: 400 | 404 | 500, code: string, message: string) {
    super(status, code, message);
    this.name = "SecretsError";
  }
}

/** One key of the ring. */
export interface SecretsKey {
  /** First 8 hex digits of SHA-256(key bytes). */
  id: string;
  key: CryptoKey;
}

/** The current key (encrypts) and all keys that decrypt, by id. */
export interface KeyRing {
  current: SecretsKey;
  byId: Map<string, SecretsKey>;
}

/** One encrypted value as stored: base64 ciphertext (with the GCM tag), base64 12-byte IV, key id. */
export interface Sealed {
  ciphertext: string;
  iv: string;
  keyId: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Standard base64 of `bytes` (no Buffer: edge-safe). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Bytes of standard base64 `text`, or null when it is not base64. */
export function fromBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  try {
    const binary = atob(text);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

async function importKey(text: string, variable: string, position?: number): Promise<SecretsKey> {
  const raw = fromBase64(text.trim());
  const where = position === undefined ? variable : `${variable} (entry ${position + 1})`;
  if (raw?.length !== 32)
    throw new SecretsError(
      500,
      "secrets_key_invalid",
      `${where} is not the base64 of 32 bytes. Generate one with \`node -e "console.log(require('crypto').randomBytes(32).toString('base64'))"\` and restart the server (see docs/secrets.md).`,
    );
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw as BufferSource));
  const id = Array.from(digest.slice(0, 4), (b) => b.toString(16).padStart(2, "0")).join("");
  const key = await crypto.subtle.importKey("raw", raw as BufferSource, "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  return { id, key };
}

const rings = new Map<string, Promise<KeyRing>>();

/**
 * The key ring of `env` (cached per distinct pair of variable values).
 * @throws SecretsError 500 `secrets_key_missing` when `STRATA_SECRETS_KEY` is unset, `secrets_key_invalid` when it
 *   or an entry of `STRATA_SECRETS_KEY_PREVIOUS` is not base64 of 32 bytes (the message names the variable only).
 */
export function keyRing(env: Env): Promise<KeyRing> {
  const current = env[KEY_VAR]?.trim();
  if (!current)
    return Promise.reject(
      new SecretsError(
        500,
        "secrets_key_missing",
        `${KEY_VAR} is not set, so workspace secrets cannot be encrypted or read. \`npm start\` creates one in .strata/secrets.json; elsewhere set ${KEY_VAR} to the base64 of 32 random bytes in the server's environment (see docs/secrets.md).`,
      ),
    );
  const previous = env[PREVIOUS_VAR] ?? "";
  const cacheKey = `${current}\n${previous}`;
  let ring = rings.get(cacheKey);
  if (!ring) {
    ring = buildRing(current, previous);
    rings.set(cacheKey, ring);
    ring.catch(() => rings.delete(cacheKey));
  }
  return ring;
}

async function buildRing(current: string, previous: string): Promise<KeyRing> {
  const now = await importKey(current, KEY_VAR);
  const byId = new Map<string, SecretsKey>([[now.id, now]]);
  const old = previous
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const [i, text] of old.entries()) {
    const key = await importKey(text, PREVIOUS_VAR, i);
    if (!byId.has(key.id)) byId.set(key.id, key);
  }
  return { current: now, byId };
}

/** The additional data binding a ciphertext to its row, so a value copied to another workspace or name fails. */
function aad(workspaceId: string, name: string): Uint8Array {
  return encoder.encode(`strata-secret\n${workspaceId}\n${name}`);
}

/** Encrypt `value` for row (`workspaceId`, `name`) under the ring's current key, with a fresh random IV. */
export async function seal(ring: KeyRing, workspaceId: string, name: string, value: string): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: aad(workspaceId, name) as BufferSource },
    ring.current.key,
    encoder.encode(value) as BufferSource,
  );
  return { ciphertext: toBase64(new Uint8Array(data)), iv: toBase64(iv), keyId: ring.current.id };
}

/**
 * Decrypt a stored value of row (`workspaceId`, `name`).
 * @throws SecretsError 500 `secrets_key_unknown` when its key id is in neither variable; `secret_undecryptable` when
 *   the ciphertext, IV or row binding was changed (GCM authentication failed).
 */
export async function unseal(
  ring: KeyRing,
  workspaceId: string,
  name: string,
  sealed: Sealed,
): Promise<string> {
  const key = ring.byId.get(sealed.keyId);
  if (!key)
    throw new SecretsError(
      500,
      "secrets_key_unknown",
      `Secret ${name} was encrypted with key ${sealed.keyId}, which is neither ${KEY_VAR} (key ${ring.current.id}) nor in ${PREVIOUS_VAR}. Add that key to ${PREVIOUS_VAR}, or set the secret again in the workspace settings.`,
    );
  const undecryptable = () =>
    new SecretsError(
      500,
      "secret_undecryptable",
      `Secret ${name} could not be decrypted with key ${key.id}: its stored ciphertext was changed or damaged. Set the secret again in the workspace settings.`,
    );
  const data = fromBase64(sealed.ciphertext);
  const iv = fromBase64(sealed.iv);
  if (!data || !iv || iv.length !== 12) throw undecryptable();
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: iv as BufferSource, additionalData: aad(workspaceId, name) as BufferSource },
      key.key,
      data as BufferSource,
    );
  } catch {
    throw undecryptable();
  }
  try {
    return decoder.decode(plain);
  } catch {
    throw undecryptable();
  }
}
