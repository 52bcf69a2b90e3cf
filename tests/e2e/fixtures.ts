/**
 * The e2e fixtures every spec imports (`import { expect, test } from "./fixtures"`): each test is its own person on
 * the one e2e server, so specs run side by side (playwright.config.ts `workers`) without seeing each other.
 *
 * - `scope`: the test's mock scope id. The e2e server has no provider key of its own (tests/e2e/server.ts); each
 *   test's workspaces get keys that name its scope (`mockScopeKey`), so every model request of the test reaches the
 *   mock provider filed under it, and `mock` (a control client bound to it) scripts and reads only the test's turns.
 * - `user`: a fresh account (signed up through `POST /api/auth/sign-up/email`) whose personal workspace has the
 *   scope's Anthropic and OpenAI keys (`test.use({ modelKeys: false })`: none, the no-model state). The default
 *   `storageState` is this user's cookie, so `page`, `context` and `request` act as them. A spec that needs a signed
 *   out browser uses `test.use({ storageState: { cookies: [], origins: [] } })`; the local owner's state (signed in by
 *   tests/e2e/global-setup.ts) is `E2E_STORAGE_STATE`.
 * - `newUser(name)`: another account in the same scope with its own signed-in page (closed after the test).
 * - `openProject(page, name, files)`: a project named `name` made through the API from a zip of `files` (path →
 *   text), opened in `page` with its chat ready. (The import through the UI is what coding-session.spec.ts (a git URL),
 *   context-trust.spec.ts (a zip, then the trust prompt) and team-rules-flow.spec.ts (a zip into a team) test.)
 * - `shot(target, name)`: a screenshot for review, taken only when `STRATA_E2E_SHOTS` names a folder
 *   (`<folder>/<spec file>/<name>.png`); nothing compares them.
 */
import fs from "node:fs";
import path from "node:path";
import {
  type APIRequestContext,
  type BrowserContext,
  test as base,
  expect,
  type Locator,
  type Page,
} from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { type MockProviderClient, mockProviderClient, mockScopeKey } from "../mock-provider";
import { E2E_APP_URL, E2E_MOCK_URL } from "./ports";

export { expect };

/** A test's account. */
export interface E2EUser {
  id: string;
  name: string;
  email: string;
  password: string;
  /** The personal workspace's id. */
  workspaceId: string;
  /** An API client signed in as this user (same-origin `Origin` header on every call). */
  api: APIRequestContext;
  /** A Playwright storage state with this user's session cookie. */
  storageState: { cookies: Awaited<ReturnType<APIRequestContext["storageState"]>>["cookies"]; origins: [] };
}

/** A project made by {@link E2EFixtures.openProject}. */
export interface E2EProject {
  id: string;
  name: string;
  /** Its directory in the workspace VFS, e.g. `/demo-abc`. */
  rootPath: string;
}

export interface E2EFixtures {
  /** Give the test user's workspace the scope's provider keys (default true; false: the no-model state). */
  modelKeys: boolean;
  scope: string;
  mock: MockProviderClient;
  user: E2EUser;
  newUser: (name: string) => Promise<{ user: E2EUser; context: BrowserContext; page: Page }>;
  /** Put the scope's provider keys on `workspaceId` (a team the test made), as `by` (an owner or admin of it). */
  scopeWorkspace: (by: E2EUser, workspaceId: string) => Promise<void>;
  openProject: (page: Page, name: string, files: Record<string, string>) => Promise<E2EProject>;
  shot: (target: Page | Locator, name: string, options?: { fullPage?: boolean }) => Promise<void>;
}

const PASSWORD = "correct horse battery";
const SAME_ORIGIN = { origin: E2E_APP_URL };

/** `PUT` the scope's Anthropic and OpenAI keys as workspace secrets of `workspaceId`. */
async function putScopeKeys(api: APIRequestContext, workspaceId: string, scope: string): Promise<void> {
  for (const [name, provider] of [
    ["ANTHROPIC_API_KEY", "anthropic"],
    ["OPENAI_API_KEY", "openai"],
  ] as const) {
    const res = await api.put(`/api/workspaces/${workspaceId}/secrets/${name}`, {
      data: { value: mockScopeKey(scope, provider) },
      headers: SAME_ORIGIN,
    });
    if (res.status() !== 200)
      throw new Error(`setting ${name} answered ${res.status()}: ${await res.text()}`);
  }
}

/** Accounts this worker process signed up (a worker's tests run one after another). */
let accounts = 0;

/** Sign up a fresh account named `name` (keys of `scope` on its workspace unless `keys` is false). */
async function signUp(
  newContext: () => Promise<APIRequestContext>,
  name: string,
  scope: string,
  keys: boolean,
  workerIndex: number,
): Promise<E2EUser> {
  const api = await newContext();
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  accounts += 1;
  const email = `${slug}-${accounts}-${scope.toLowerCase()}@example.test`;
  // Each account signs up from its own client address (as people on their own machines do; unique among the
  // workers running now): the server's per-address sign-up limit (30 an hour, docs/auth.md) stays as in production.
  const address = `10.${workerIndex % 256}.${(accounts >> 8) & 255}.${accounts & 255}`;
  const res = await api.post("/api/auth/sign-up/email", {
    data: { email, password: PASSWORD, name },
    headers: { ...SAME_ORIGIN, "x-forwarded-for": address },
  });
  if (res.status() !== 200)
    throw new Error(`sign-up of ${email} answered ${res.status()}: ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string } };
  const list = await api.get("/api/workspaces");
  const { workspaces } = (await list.json()) as { workspaces: { id: string; kind: string }[] };
  const personal = workspaces.find((w) => w.kind === "personal");
  if (!personal) throw new Error(`${email} has no personal workspace: ${JSON.stringify(workspaces)}`);
  if (keys) await putScopeKeys(api, personal.id, scope);
  const { cookies } = await api.storageState();
  return {
    id: user.id,
    name,
    email,
    password: PASSWORD,
    workspaceId: personal.id,
    api,
    storageState: { cookies, origins: [] },
  };
}

/** The zip of `files` under a top folder `name` (the import strips it). */
function zipOf(name: string, files: Record<string, string>): Buffer {
  const entries = Object.entries(files).map(([p, text]) => [`${name}/${p}`, strToU8(text)] as const);
  return Buffer.from(zipSync(Object.fromEntries(entries)));
}

/** Wait until the IDE of a project is ready for a prompt: its Context panel loaded and the composer enabled. */
export async function expectIdeReady(page: Page): Promise<void> {
  await expect(page.getByRole("region", { name: "Context", exact: true })).toContainText("in effect");
  await expect(page.getByLabel("Message")).toBeEnabled();
}

export const test = base.extend<E2EFixtures>({
  modelKeys: [true, { option: true }],

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  scope: async ({}, use, testInfo) => {
    const random = Math.random().toString(36).slice(2, 8);
    await use(`${testInfo.testId}-${testInfo.repeatEachIndex}-${random}`);
  },

  mock: async ({ scope }, use) => {
    const client = mockProviderClient(E2E_MOCK_URL, scope);
    await use(client);
    await client.reset();
  },

  user: async ({ playwright, scope, modelKeys }, use, testInfo) => {
    const contexts: APIRequestContext[] = [];
    const newContext = async () => {
      const api = await playwright.request.newContext({ baseURL: E2E_APP_URL });
      contexts.push(api);
      return api;
    };
    await use(await signUp(newContext, "Test User", scope, modelKeys, testInfo.workerIndex));
    for (const api of contexts) await api.dispose();
  },

  // A spec's `test.use({ storageState })` replaces this (and then no account is made unless the test asks for `user`).
  storageState: async ({ user }, use) => use(user.storageState),

  newUser: async ({ browser, playwright, scope, modelKeys }, use, testInfo) => {
    const opened: { api: APIRequestContext; context: BrowserContext }[] = [];
    await use(async (name) => {
      const user = await signUp(
        () => playwright.request.newContext({ baseURL: E2E_APP_URL }),
        name,
        scope,
        modelKeys,
        testInfo.workerIndex,
      );
      const context = await browser.newContext({ baseURL: E2E_APP_URL, storageState: user.storageState });
      opened.push({ api: user.api, context });
      return { user, context, page: await context.newPage() };
    });
    for (const { api, context } of opened) {
      await context.close();
      await api.dispose();
    }
  },

  scopeWorkspace: async ({ scope }, use) => {
    await use((by, workspaceId) => putScopeKeys(by.api, workspaceId, scope));
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  openProject: async ({}, use) => {
    await use(async (page, name, files) => {
      const res = await page.request.post("/api/projects", {
        headers: SAME_ORIGIN,
        multipart: {
          file: { name: `${name}.zip`, mimeType: "application/zip", buffer: zipOf(name, files) },
          name,
        },
      });
      if (res.status() !== 201)
        throw new Error(`project import answered ${res.status()}: ${await res.text()}`);
      const { project } = (await res.json()) as { project: E2EProject };
      await page.goto(`/projects/${project.id}`);
      await expectIdeReady(page);
      return project;
    });
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  shot: async ({}, use, testInfo) => {
    const root = process.env.STRATA_E2E_SHOTS;
    const dir = root ? path.join(root, path.basename(testInfo.file, ".spec.ts")) : undefined;
    if (dir) fs.mkdirSync(dir, { recursive: true });
    await use(async (target, name, options = {}) => {
      if (!dir) return;
      const file = path.join(dir, `${name}.png`);
      if ("goto" in target) await target.screenshot({ path: file, fullPage: options.fullPage });
      else await target.screenshot({ path: file });
    });
  },
});
