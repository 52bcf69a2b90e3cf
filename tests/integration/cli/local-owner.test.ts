/**
 * The embedded default's first start (scripts/local-db.mjs, called by scripts/start.mjs): `.strata/secrets.json` is
 * made once (dir 0700, file 0600, 32 random bytes per secret) and kept; the local owner account is created with its
 * personal workspace and owner member row, idempotently, and an owner the migration made from the single-user `local`
 * user is kept with its own workspace. Each case runs on a fresh database of its own.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureLocalOwner, ensureSecrets, readSecrets } from "../../../scripts/local-db.mjs";
import { createTestDatabase, type TestDatabase } from "../../helpers/postgres";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "strata-secrets-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ensureSecrets", () => {
  it("makes .strata/secrets.json once (0700 / 0600, 32-byte base64 values) and keeps it", () => {
    const state = path.join(dir, "state");
    const first = ensureSecrets(state);
    expect(Object.keys(first)).toEqual(["BETTER_AUTH_SECRET", "STRATA_SECRETS_KEY"]);
    expect(Buffer.from(first.BETTER_AUTH_SECRET, "base64")).toHaveLength(32);
    expect(Buffer.from(first.STRATA_SECRETS_KEY, "base64")).toHaveLength(32);
    expect(first.BETTER_AUTH_SECRET).not.toBe(first.STRATA_SECRETS_KEY);
    expect(statSync(state).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(state, "secrets.json")).mode & 0o777).toBe(0o600);
    expect(ensureSecrets(state)).toEqual(first);
    expect(readSecrets(state)).toEqual(first);
  });

  it("adds a missing secret without touching the other, and refuses a file that is not a JSON object", () => {
    const state = path.join(dir, "partial");
    ensureSecrets(state);
    const file = path.join(state, "secrets.json");
    const kept = JSON.parse(readFileSync(file, "utf8")).BETTER_AUTH_SECRET;
    writeFileSync(file, JSON.stringify({ BETTER_AUTH_SECRET: kept }));
    const again = ensureSecrets(state);
    expect(again.BETTER_AUTH_SECRET).toBe(kept);
    expect(Buffer.from(again.STRATA_SECRETS_KEY, "base64")).toHaveLength(32);
    writeFileSync(file, "[1]");
    expect(() => ensureSecrets(state)).toThrow(
      `${file} is not a JSON object; move it away and start again (a new one is made; everyone is signed out and workspace secrets must be entered again)`,
    );
  });
});

describe("ensureLocalOwner", () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase("strata_local_owner");
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.close();
  });

  const state = async () => ({
    users: (await client.query("SELECT id, email, name, email_verified FROM users ORDER BY created_at")).rows,
    workspaces: (
      await client.query(
        `SELECT w.kind, w.owner_user_id, m.user_id AS member, m.role FROM workspaces w
         LEFT JOIN workspace_members m ON m.workspace_id = w.id ORDER BY w.created_at`,
      )
    ).rows,
  });

  it("creates the owner with a personal workspace and owner member row, once", async () => {
    const first = await ensureLocalOwner(db.url, db.proxy);
    expect(first.created).toBe(true);
    const second = await ensureLocalOwner(db.url, db.proxy);
    expect(second).toEqual({ userId: first.userId, created: false });
    expect(await state()).toEqual({
      users: [
        { id: first.userId, email: "owner@strata.localhost", name: "Local owner", email_verified: true },
      ],
      workspaces: [{ kind: "personal", owner_user_id: first.userId, member: first.userId, role: "owner" }],
    });
  });

  it("keeps an owner the migration made from the legacy local user, and its workspace", async () => {
    await client.query("DELETE FROM users");
    const legacy = (
      await client.query(
        "INSERT INTO users (name, email) VALUES ('Local owner', 'owner@strata.localhost') RETURNING id",
      )
    ).rows[0].id as string;
    const ws = (
      await client.query(
        "INSERT INTO workspaces (name, kind, owner_user_id, slug) VALUES ('Personal', 'personal', $1, 'personal-legacy') RETURNING id",
        [legacy],
      )
    ).rows[0].id as string;
    expect(await ensureLocalOwner(db.url, db.proxy)).toEqual({ userId: legacy, created: false });
    const after = await state();
    expect(after.workspaces).toEqual([
      { kind: "personal", owner_user_id: legacy, member: legacy, role: "owner" },
    ]);
    expect((await client.query("SELECT id FROM workspaces WHERE owner_user_id = $1", [legacy])).rows).toEqual(
      [{ id: ws }],
    );
  });
});
