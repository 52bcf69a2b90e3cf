import { describe, expect, it } from "vitest";
import { fromBase64, keyRing, type Sealed, SecretsError, seal, toBase64, unseal } from "@/lib/secrets/crypto";
import { SECRET_NAMES, secretNameProblem, secretValueProblem } from "@/lib/secrets/names";

const keyOf = (byte: number) => toBase64(new Uint8Array(32).fill(byte));
const KEY_A = keyOf(1);
const KEY_B = keyOf(2);
const WS = "11111111-1111-1111-1111-111111111111";

async function expectSecretsError(promise: Promise<unknown>, code: string, message: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SecretsError);
  expect((error as SecretsError).code).toBe(code);
  expect((error as SecretsError).message).toBe(message);
}

describe("lib/secrets crypto", () => {
  it("key id is the first 8 hex of SHA-256 of the key bytes", async () => {
    const ring = await keyRing({ STRATA_SECRETS_KEY: KEY_A });
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(32).fill(1)));
    const hex = Array.from(digest.slice(0, 4), (b) => b.toString(16).padStart(2, "0")).join("");
    expect(ring.current.id).toBe(hex);
    expect(ring.current.id).toMatch(/^[0-9a-f]{8}$/);
  });

  it("round-trips a value and uses a fresh IV each time", async () => {
    const ring = await keyRing({ STRATA_SECRETS_KEY: KEY_A });
    const one = await seal(ring, WS, "ANTHROPIC_API_KEY", "sk-ant-ROUNDTRIP-1");
    const two = await seal(ring, WS, "ANTHROPIC_API_KEY", "sk-ant-ROUNDTRIP-1");
    expect(one.iv).not.toBe(two.iv);
    expect(one.ciphertext).not.toContain("ROUNDTRIP");
    expect(fromBase64(one.iv)?.length).toBe(12);
    // 18 bytes of plaintext + the 16-byte GCM tag.
    expect(fromBase64(one.ciphertext)?.length).toBe(18 + 16);
    expect(await unseal(ring, WS, "ANTHROPIC_API_KEY", one)).toBe("sk-ant-ROUNDTRIP-1");
    expect(await unseal(ring, WS, "ANTHROPIC_API_KEY", two)).toBe("sk-ant-ROUNDTRIP-1");
  });

  it("a value sealed under another key is refused with the key ids, never a key", async () => {
    const a = await keyRing({ STRATA_SECRETS_KEY: KEY_A });
    const b = await keyRing({ STRATA_SECRETS_KEY: KEY_B });
    const sealed = await seal(a, WS, "OPENAI_API_KEY", "sk-WRONGKEY");
    await expectSecretsError(
      unseal(b, WS, "OPENAI_API_KEY", sealed),
      "secrets_key_unknown",
      `Secret OPENAI_API_KEY was encrypted with key ${a.current.id}, which is neither STRATA_SECRETS_KEY (key ${b.current.id}) nor in STRATA_SECRETS_KEY_PREVIOUS. Add that key to STRATA_SECRETS_KEY_PREVIOUS, or set the secret again in the workspace settings.`,
    );
    // A wrong key that claims the right id (same id, different bytes) fails authentication.
    const forged: Sealed = { ...sealed, keyId: b.current.id };
    await expectSecretsError(
      unseal(b, WS, "OPENAI_API_KEY", forged),
      "secret_undecryptable",
      `Secret OPENAI_API_KEY could not be decrypted with key ${b.current.id}: its stored ciphertext was changed or damaged. Set the secret again in the workspace settings.`,
    );
  });

  it("rotation: a previous key still decrypts; the current key encrypts", async () => {
    const old = await keyRing({ STRATA_SECRETS_KEY: KEY_A });
    const sealed = await seal(old, WS, "MISTRAL_API_KEY", "mistral-ROTATE");
    const rotated = await keyRing({
      STRATA_SECRETS_KEY: KEY_B,
      STRATA_SECRETS_KEY_PREVIOUS: ` ${keyOf(9)}, ${KEY_A} `,
    });
    expect([...rotated.byId.keys()]).toEqual([
      rotated.current.id,
      (await keyRing({ STRATA_SECRETS_KEY: keyOf(9) })).current.id,
      old.current.id,
    ]);
    expect(await unseal(rotated, WS, "MISTRAL_API_KEY", sealed)).toBe("mistral-ROTATE");
    const again = await seal(rotated, WS, "MISTRAL_API_KEY", "mistral-ROTATE");
    expect(again.keyId).toBe(rotated.current.id);
  });

  it("tampered ciphertext, IV or row binding → secret_undecryptable", async () => {
    const ring = await keyRing({ STRATA_SECRETS_KEY: KEY_A });
    const sealed = await seal(ring, WS, "ANTHROPIC_API_KEY", "sk-ant-TAMPER");
    const bytes = fromBase64(sealed.ciphertext) as Uint8Array;
    bytes[0] ^= 1;
    const message = `Secret ANTHROPIC_API_KEY could not be decrypted with key ${ring.current.id}: its stored ciphertext was changed or damaged. Set the secret again in the workspace settings.`;
    await expectSecretsError(
      unseal(ring, WS, "ANTHROPIC_API_KEY", { ...sealed, ciphertext: toBase64(bytes) }),
      "secret_undecryptable",
      message,
    );
    const iv = fromBase64(sealed.iv) as Uint8Array;
    iv[11] ^= 1;
    await expectSecretsError(
      unseal(ring, WS, "ANTHROPIC_API_KEY", { ...sealed, iv: toBase64(iv) }),
      "secret_undecryptable",
      message,
    );
    await expectSecretsError(
      unseal(ring, WS, "ANTHROPIC_API_KEY", { ...sealed, ciphertext: "not base64!" }),
      "secret_undecryptable",
      message,
    );
    // Copied to another workspace: the additional data differs.
    await expectSecretsError(
      unseal(ring, "22222222-2222-2222-2222-222222222222", "ANTHROPIC_API_KEY", sealed),
      "secret_undecryptable",
      message,
    );
  });

  it("a missing or invalid key names the variable, never its value", async () => {
    await expectSecretsError(
      keyRing({}),
      "secrets_key_missing",
      "STRATA_SECRETS_KEY is not set, so workspace secrets cannot be encrypted or read. `npm start` creates one in .strata/secrets.json; elsewhere set STRATA_SECRETS_KEY to the base64 of 32 random bytes in the server's environment (see docs/secrets.md).",
    );
    const invalid = (where: string) =>
      `${where} is not the base64 of 32 bytes. Generate one with \`node -e "console.log(require('crypto').randomBytes(32).toString('base64'))"\` and restart the server (see docs/secrets.md).`;
    await expectSecretsError(
      keyRing({ STRATA_SECRETS_KEY: "KEYVALUE-LEAK-abc" }),
      "secrets_key_invalid",
      invalid("STRATA_SECRETS_KEY"),
    );
    await expectSecretsError(
      keyRing({ STRATA_SECRETS_KEY: toBase64(new Uint8Array(16)) }),
      "secrets_key_invalid",
      invalid("STRATA_SECRETS_KEY"),
    );
    await expectSecretsError(
      keyRing({ STRATA_SECRETS_KEY: KEY_A, STRATA_SECRETS_KEY_PREVIOUS: `${KEY_B},short` }),
      "secrets_key_invalid",
      invalid("STRATA_SECRETS_KEY_PREVIOUS (entry 2)"),
    );
  });
});

describe("lib/secrets names", () => {
  it("allows exactly the provider variables", () => {
    expect(SECRET_NAMES).toEqual([
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "GOOGLE_GENERATIVE_AI_API_KEY",
      "MISTRAL_API_KEY",
      "OPENAI_COMPATIBLE_BASE_URL",
      "OPENAI_COMPATIBLE_API_KEY",
    ]);
    expect(secretNameProblem("ANTHROPIC_API_KEY")).toBeNull();
    expect(secretNameProblem("DATABASE_URL")).toBe(
      "DATABASE_URL is not a workspace secret Strata uses. Allowed names: ANTHROPIC_API_KEY, OPENAI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, MISTRAL_API_KEY, OPENAI_COMPATIBLE_BASE_URL, OPENAI_COMPATIBLE_API_KEY.",
    );
  });

  it("checks values without quoting them", () => {
    expect(secretValueProblem("OPENAI_API_KEY", "sk-ok")).toBeNull();
    expect(secretValueProblem("OPENAI_API_KEY", "  ")).toBe(
      "The value is empty. Paste the key (or URL) to store.",
    );
    expect(secretValueProblem("OPENAI_API_KEY", "x".repeat(4097))).toBe(
      "The value is 4097 characters long; at most 4096 are accepted.",
    );
    expect(secretValueProblem("OPENAI_API_KEY", "x".repeat(4096))).toBeNull();
    expect(secretValueProblem("OPENAI_API_KEY", "sk-a\nb")).toBe(
      "The value contains a line break, tab or other control character; paste it again without them.",
    );
    expect(secretValueProblem("OPENAI_API_KEY", " sk-a")).toBe(
      "The value starts or ends with spaces; paste it again without them.",
    );
    expect(secretValueProblem("OPENAI_COMPATIBLE_BASE_URL", "ftp://x")).toBe(
      "OPENAI_COMPATIBLE_BASE_URL must be an https:// URL, e.g. https://api.example.com/v1.",
    );
    expect(secretValueProblem("OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:4010/v1")).toBe(
      "OPENAI_COMPATIBLE_BASE_URL must be an https:// URL, e.g. https://api.example.com/v1.",
    );
    expect(secretValueProblem("OPENAI_COMPATIBLE_BASE_URL", "https://gw.example.com/v1")).toBeNull();
  });
});
