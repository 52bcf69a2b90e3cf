/**
 * Workspace secrets against the real Postgres: the routes as browsers call them (manage only, never a value in a
 * body), the stored bytes (ciphertext, not the value), rotation, and the provider env a project's runs and
 * `GET /api/config?project=` see (workspace secret wins over the server environment). `strata secrets rotate` runs
 * in process (tests/helpers/cli.ts `runStrata`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as configRoute } from "@/app/api/config/route";
import { DELETE as deleteRoute, PUT as putRoute } from "@/app/api/workspaces/[id]/secrets/[name]/route";
import { GET as listRoute } from "@/app/api/workspaces/[id]/secrets/route";
import { DbScope, withDb } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { keyRing, toBase64 } from "@/lib/secrets/crypto";
import { projectProviderEnv } from "@/lib/secrets/provider-env";
import { getSecretValues, rotateSecrets, setSecret } from "@/lib/secrets/store";
import { asUser, authJson, createTestUser, type TestUser } from "../../helpers/auth";
import { type CliRun, runStrata } from "../../helpers/cli";
import { createTestDatabase, type TestDatabase } from "../../helpers/postgres";

const KEY_A = toBase64(new Uint8Array(32).fill(7));
const KEY_B = toBase64(new Uint8Array(32).fill(8));
const params = <T>(value: T) => ({ params: Promise.resolve(value) });

async function teamWith(owner: TestUser, others: [TestUser, string][]): Promise<string> {
  const team = await authJson<{ id: string }>(
    "/organization/create",
    { name: "Secrets team", slug: `secrets-${owner.id}` },
    owner,
  );
  for (const [user, role] of others) {
    const inv = await authJson<{ id: string }>(
      "/organization/invite-member",
      { email: user.email, role, organizationId: team.id },
      owner,
    );
    await authJson("/organization/accept-invitation", { invitationId: inv.id }, user);
  }
  return team.id;
}

const put = (user: TestUser | null, ws: string, name: string, body: unknown) =>
  putRoute(
    asUser(user, `/api/workspaces/${ws}/secrets/${name}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    params({ id: ws, name }),
  );
const list = (user: TestUser | null, ws: string) =>
  listRoute(asUser(user, `/api/workspaces/${ws}/secrets`), params({ id: ws }));
const del = (user: TestUser | null, ws: string, name: string) =>
  deleteRoute(
    asUser(user, `/api/workspaces/${ws}/secrets/${name}`, { method: "DELETE" }),
    params({ id: ws, name }),
  );

describe("workspace secret routes", () => {
  it("admins set, list and delete; members/viewers 403, outsiders 404, anonymous 401; no value answered", async () => {
    const owner = await createTestUser("Owner");
    const admin = await createTestUser("Admin Ann");
    const member = await createTestUser("Member");
    const viewer = await createTestUser("Viewer");
    const outsider = await createTestUser("Outsider");
    const ws = await teamWith(owner, [
      [admin, "admin"],
      [member, "member"],
      [viewer, "viewer"],
    ]);
    const value = "sk-ant-ROUTETEST-0123456789";

    const res = await put(admin, ws, "ANTHROPIC_API_KEY", { value });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("ROUTETEST");
    const { secret } = JSON.parse(text) as { secret: { name: string; updatedAt: string; updatedBy: string } };
    expect(secret.name).toBe("ANTHROPIC_API_KEY");
    expect(secret.updatedBy).toBe("Admin Ann");
    expect(Number.isNaN(Date.parse(secret.updatedAt))).toBe(false);

    const listed = await list(owner, ws);
    expect(listed.status).toBe(200);
    const listedText = await listed.text();
    expect(listedText).not.toContain("ROUTETEST");
    expect(JSON.parse(listedText)).toEqual({
      secrets: [{ name: "ANTHROPIC_API_KEY", updatedAt: secret.updatedAt, updatedBy: "Admin Ann" }],
    });

    // Stored encrypted: the row's bytes do not contain the value.
    const rows = await withDb((scope) =>
      scope.query<{ c: string; key_id: string; iv_len: number }>(
        "SELECT encode(ciphertext, 'escape') AS c, key_id, length(iv) AS iv_len FROM workspace_secrets WHERE workspace_id = $1",
        [ws],
      ),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].c).not.toContain("ROUTETEST");
    expect(rows[0].key_id).toMatch(/^[0-9a-f]{8}$/);
    expect(rows[0].iv_len).toBe(12);

    for (const [user, status, code] of [
      [member, 403, "forbidden"],
      [viewer, 403, "forbidden"],
      [outsider, 404, "not_found"],
      [null, 401, "unauthenticated"],
    ] as const) {
      for (const r of [
        await put(user, ws, "OPENAI_API_KEY", { value: "sk-x" }),
        await list(user, ws),
        await del(user, ws, "ANTHROPIC_API_KEY"),
      ]) {
        expect(r.status).toBe(status);
        const body = await r.text();
        expect(JSON.parse(body).error.code).toBe(code);
        expect(body).not.toContain('ANTHROPIC_API_KEY"');
      }
    }
    const outsiderBody = await (await list(outsider, ws)).json();
    expect(outsiderBody).toEqual({ error: { code: "not_found", message: `Workspace ${ws} not found` } });

    const bad = await put(owner, ws, "DATABASE_URL", { value: "postgres://x" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_secret_name");
    const badValue = await put(owner, ws, "OPENAI_API_KEY", { value: "sk-LEAK\nX" });
    expect(badValue.status).toBe(400);
    const badText = await badValue.text();
    expect(badText).not.toContain("sk-LEAK");
    expect(JSON.parse(badText)).toEqual({
      error: {
        code: "invalid_secret_value",
        message:
          "The value contains a line break, tab or other control character; paste it again without them.",
      },
    });

    const deleted = await del(owner, ws, "ANTHROPIC_API_KEY");
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: "ANTHROPIC_API_KEY" });
    expect(await (await list(owner, ws)).json()).toEqual({ secrets: [] });
    const again = await del(owner, ws, "ANTHROPIC_API_KEY");
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: { code: "not_found", message: "Secret ANTHROPIC_API_KEY is not set in this workspace." },
    });
  });
});

describe("provider env and rotation", () => {
  it("a project's env and model list take the workspace's secrets over the server environment", async () => {
    const owner = await createTestUser("Env owner");
    const project = await withDb((scope) =>
      insertProject(scope, { workspaceId: owner.workspaceId, name: "env-project", source: null }),
    );
    const serverEnv = {
      // tests/setup-env.ts's key, which the config route reads from process.env.
      STRATA_SECRETS_KEY: process.env.STRATA_SECRETS_KEY,
      ANTHROPIC_API_KEY: "server-key",
      OPENAI_API_KEY: "server-openai",
    };
    expect(await withDb((scope) => projectProviderEnv(scope, project.id, serverEnv))).toBe(serverEnv);
    await withDb((scope) =>
      setSecret(scope, owner.workspaceId, "ANTHROPIC_API_KEY", "ws-key", owner.id, serverEnv),
    );
    const env = await withDb((scope) => projectProviderEnv(scope, project.id, serverEnv));
    expect(env).toEqual({ ...serverEnv, ANTHROPIC_API_KEY: "ws-key" });
    expect(serverEnv.ANTHROPIC_API_KEY).toBe("server-key");

    // The config route for the project lists the workspace's provider even with no server key for it.
    await withDb((scope) =>
      setSecret(scope, owner.workspaceId, "MISTRAL_API_KEY", "ws-mistral-VALUE", owner.id),
    );
    const res = await configRoute(asUser(owner, `/api/config?project=${project.id}`));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("ws-mistral-VALUE");
    const body = JSON.parse(text) as { models: { id: string }[]; configured: boolean };
    expect(body.configured).toBe(true);
    expect(body.models.some((m) => m.id.startsWith("mistral/"))).toBe(true);
    const other = await createTestUser("Env outsider");
    const hidden = await configRoute(asUser(other, `/api/config?project=${project.id}`));
    expect(hidden.status).toBe(404);
  });
});

/**
 * Rotation re-encrypts every row of a database, so it runs on a database of its own: rows other test files store
 * under tests/setup-env.ts's key stay as they are.
 */
describe("rotation (own database)", () => {
  let db: TestDatabase;
  let workspaceId: string;
  let userId: string;
  const inDb = <T>(fn: (scope: DbScope) => Promise<T>) => {
    const scope = new DbScope(db.url);
    return fn(scope).finally(() => scope.release());
  };
  beforeAll(async () => {
    db = await createTestDatabase("strata_rotate");
    [{ id: userId }] = await inDb((scope) =>
      scope.query<{ id: string }>(
        "INSERT INTO users (name, email) VALUES ('Rotator', 'rotator@example.test') RETURNING id",
      ),
    );
    [{ id: workspaceId }] = await inDb((scope) =>
      scope.query<{ id: string }>(
        "INSERT INTO workspaces (name, slug) VALUES ('Rotate', 'rotate') RETURNING id",
      ),
    );
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it("rotate re-encrypts every row under the new key; the old key then is no longer needed", async () => {
    const old = { STRATA_SECRETS_KEY: KEY_A };
    await inDb((scope) => setSecret(scope, workspaceId, "OPENAI_API_KEY", "sk-ROTATE-1", userId, old));
    await inDb((scope) => setSecret(scope, workspaceId, "MISTRAL_API_KEY", "m-ROTATE-2", userId, old));
    const next = { STRATA_SECRETS_KEY: KEY_B, STRATA_SECRETS_KEY_PREVIOUS: KEY_A };
    // Before rotation the new key alone cannot read them.
    await expect(
      inDb((scope) => getSecretValues(scope, workspaceId, { STRATA_SECRETS_KEY: KEY_B })),
    ).rejects.toMatchObject({ code: "secrets_key_unknown" });
    expect(await inDb((scope) => getSecretValues(scope, workspaceId, next))).toEqual({
      MISTRAL_API_KEY: "m-ROTATE-2",
      OPENAI_API_KEY: "sk-ROTATE-1",
    });
    const ringB = await keyRing({ STRATA_SECRETS_KEY: KEY_B });
    expect(await inDb((scope) => rotateSecrets(scope, next))).toEqual({
      keyId: ringB.current.id,
      rotated: 2,
      alreadyCurrent: 0,
    });
    expect(await inDb((scope) => rotateSecrets(scope, next))).toEqual({
      keyId: ringB.current.id,
      rotated: 0,
      alreadyCurrent: 2,
    });
    expect(await inDb((scope) => getSecretValues(scope, workspaceId, { STRATA_SECRETS_KEY: KEY_B }))).toEqual(
      {
        MISTRAL_API_KEY: "m-ROTATE-2",
        OPENAI_API_KEY: "sk-ROTATE-1",
      },
    );
  });

  it("`strata secrets rotate` re-encrypts under the environment's key and says how many; a bad key is one line", async () => {
    const KEY_C = toBase64(new Uint8Array(32).fill(9));
    const ringC = await keyRing({ STRATA_SECRETS_KEY: KEY_C });
    const ok = await strata({
      DATABASE_URL: db.url,
      STRATA_DB_PROXY: db.proxy,
      STRATA_SECRETS_KEY: KEY_C,
      STRATA_SECRETS_KEY_PREVIOUS: `${KEY_A},${KEY_B}`,
    });
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(
      `Re-encrypted 2 secrets under key ${ringC.current.id} (0 already under it). STRATA_SECRETS_KEY_PREVIOUS is no longer needed.\n`,
    );
    expect(await inDb((scope) => getSecretValues(scope, workspaceId, { STRATA_SECRETS_KEY: KEY_C }))).toEqual(
      {
        MISTRAL_API_KEY: "m-ROTATE-2",
        OPENAI_API_KEY: "sk-ROTATE-1",
      },
    );
    const bad = await strata({
      DATABASE_URL: db.url,
      STRATA_DB_PROXY: db.proxy,
      STRATA_SECRETS_KEY: "not-a-key-VALUE",
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      "strata: STRATA_SECRETS_KEY is not the base64 of 32 bytes. Generate one with `node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"` and restart the server (see docs/secrets.md).\n",
    );
    expect(bad.stderr).not.toContain("not-a-key-VALUE");
  });
});

/** `strata secrets rotate` in process (tests/helpers/cli.ts), with `env` over this process's environment. */
function strata(env: Record<string, string>): Promise<CliRun> {
  return runStrata(["secrets", "rotate"], { env: { ...process.env, ...env } });
}
