/**
 * Structured data and file paths in a share (docs/sharing.md, "Redaction rules"): under a secret-named key the whole
 * value goes (every string and number below it), object keys of tool-call arguments and custom entry data are
 * redacted (clashing ones get `~2`), and so are shared file paths — the redacted path is the one served and forked,
 * reported with line 0 (the file name).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as sharePage } from "@/app/s/[token]/route";
import { DbScope } from "@/lib/db/client";
import { loadAllEntries } from "@/lib/session/context-load";
import type { NewEntry } from "@/lib/session/entries";
import { appendEntry } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { createTestUser } from "../../helpers/auth";
import { readAll, routes, share } from "./helpers";
import { call, ownerProject } from "./share-fixture";

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

const SK_A = "sk-proj-AAAAq3rTy8uIo9pAs5dFg7hJk2lZx4cVb";
const SK_B = "sk-proj-BBBBq3rTy8uIo9pAs5dFg7hJk2lZx4cVb";
const SK_C = "sk-proj-CCCCq3rTy8uIo9pAs5dFg7hJk2lZx4cVb";
const SK_D = "sk-proj-DDDDq3rTy8uIo9pAs5dFg7hJk2lZx4cVb";
const SECRETS = [
  SK_A,
  SK_B,
  SK_C,
  SK_D,
  "hunter2 with spaces",
  "first part",
  "second-half",
  "12345678",
  "Nightingale",
];
const R = "[redacted:SecretKeyValue]";
const RK = "[redacted:SecretKeySk]";

const toolCall: NewEntry = {
  type: "message",
  message: {
    role: "assistant",
    content: [
      {
        type: "toolCall",
        id: "call_1",
        name: "bash",
        arguments: {
          command: "echo ok",
          password: "hunter2 with spaces",
          [SK_C]: "flag",
          [SK_D]: "other",
          auth: { clientSecret: ["first part", "second-half"] },
          nested: { apiToken: 12345678, note: "kept" },
        },
      },
    ],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "toolUse",
    timestamp: 2,
  },
} as NewEntry;

describe("share keys, whole secret values and file paths", () => {
  it("redacts whole values under secret keys, keys themselves and file paths (line 0), everywhere", async () => {
    const f = await ownerProject(scope, {
      "Nightingale plan.md": "# plan\n",
      [`keys/${SK_A}.txt`]: "one\n",
      [`keys/${SK_B}.txt`]: "two\n",
      "plain.txt": "plain\n",
    });
    await appendEntry(scope, f.session.id, {
      type: "message",
      message: { role: "user", content: "hi", timestamp: 1 },
    });
    await appendEntry(scope, f.session.id, toolCall);
    const leaf = await appendEntry(
      scope,
      f.session.id,
      {
        type: "custom",
        customType: "demo.ext",
        data: { [SK_A]: "v", token: "plain words here", items: [{ secret: 42 }], label: "kept" },
      } as NewEntry,
      { commit: f.initCommit },
    );
    const { preview, previewBody, token } = await share(f.owner, f.session.id, {
      leafId: leaf.id,
      includeFiles: true,
      redact: ["Nightingale"],
    });
    const entries = preview.snapshot.entries as unknown as Record<string, unknown>[];
    const args = (entries[1].message as { content: { arguments: Record<string, unknown> }[] }).content[0]
      .arguments;
    expect(Object.entries(args)).toEqual([
      ["command", "echo ok"],
      ["password", R],
      [RK, "flag"],
      [`${RK}~2`, "other"],
      ["auth", { clientSecret: [R, R] }],
      ["nested", { apiToken: R, note: "kept" }],
    ]);
    expect(entries[2].data).toEqual({ [RK]: "v", token: R, items: [{ secret: R }], label: "kept" });

    const paths = ["[redacted:owner] plan.md", `keys/${RK}.txt`, `keys/${RK}.txt~2`, "plain.txt"];
    expect(preview.snapshot.files?.map((x) => x.path)).toEqual(paths);
    expect(preview.fileTexts).toEqual({
      "[redacted:owner] plan.md": "# plan\n",
      [`keys/${RK}.txt`]: "one\n",
      [`keys/${RK}.txt~2`]: "two\n",
      "plain.txt": "plain\n",
    });
    expect(
      preview.snapshot.redactions.map((r) => [
        r.site.kind === "entry"
          ? `entry ${r.site.entry} (${r.site.part}):${r.site.line}`
          : JSON.stringify(r.site),
        r.rule,
        r.kind,
        r.excerpt,
      ]),
    ).toEqual([
      // The part names pi's field, never the argument's own key (SK_C is a key here).
      ["entry 1 (arguments):1", "strata/secret-key", "SecretKeyValue", R],
      ["entry 1 (arguments key):1", "@secretlint/secretlint-rule-pattern", "SecretKeySk", RK],
      ["entry 1 (arguments key):1", "@secretlint/secretlint-rule-pattern", "SecretKeySk", RK],
      ["entry 1 (arguments):1", "strata/secret-key", "SecretKeyValue", R],
      ["entry 1 (arguments):1", "strata/secret-key", "SecretKeyValue", R],
      ["entry 1 (arguments):1", "strata/secret-key", "SecretKeyValue", R],
      ["entry 2 (data key):1", "@secretlint/secretlint-rule-pattern", "SecretKeySk", RK],
      ["entry 2 (data):1", "strata/secret-key", "SecretKeyValue", R],
      ["entry 2 (data):1", "strata/secret-key", "SecretKeyValue", R],
      [
        JSON.stringify({ kind: "file", path: "[redacted:owner] plan.md", line: 0 }),
        "owner",
        "owner",
        "[redacted:owner] plan.md",
      ],
      [
        JSON.stringify({ kind: "file", path: `keys/${RK}.txt`, line: 0 }),
        "@secretlint/secretlint-rule-pattern",
        "SecretKeySk",
        `keys/${RK}.txt`,
      ],
      [
        JSON.stringify({ kind: "file", path: `keys/${RK}.txt~2`, line: 0 }),
        "@secretlint/secretlint-rule-pattern",
        "SecretKeySk",
        `keys/${RK}.txt`,
      ],
    ]);

    const bodies = await readAll(token, [...paths, `keys/${SK_A}.txt`]);
    expect(bodies.map((b) => b.status)).toEqual([200, 200, 200, 200, 200, 404]);
    expect(bodies.slice(1, 5).map((b) => b.body)).toEqual(["# plan\n", "one\n", "two\n", "plain\n"]);

    const forker = await createTestUser("Keys forker");
    const forked = await call(routes.fork.POST, forker, `/api/s/${token}/fork`, { token }, { json: {} });
    expect(forked.status).toBe(201);
    const { project, session } = JSON.parse(forked.body) as {
      project: { rootPath: string };
      session: { id: string };
    };
    const { vfs, scope: vs } = openWorkspaceVfs(forker.workspaceId, new DbScope());
    const forkFiles: string[] = [];
    for (const p of paths) forkFiles.push(await vfs.readText(`${project.rootPath}/${p}`));
    await vs.release();
    expect(forkFiles).toEqual(["# plan\n", "one\n", "two\n", "plain\n"]);
    const forkEntries = JSON.stringify(await loadAllEntries(scope, session.id));
    const everything = [previewBody, ...bodies.map((b) => b.body), forked.body, forkEntries].join("\n");
    for (const s of SECRETS) expect(everything, s).not.toContain(s);
  });

  it("redacts a nested object shaped like an entry (parentId, timestamp) as any other: only an entry's own metadata is passed over", async () => {
    const f = await ownerProject(scope, { "a.txt": "a\n" });
    // A tool call's arguments the model (or an injected prompt) shaped like an entry: their id, type and timestamp
    // fields are the arguments' own strings, and `password` is secret-named.
    const shaped: NewEntry = structuredClone(toolCall);
    const call = (shaped as { message: { content: { arguments: Record<string, unknown> }[] } }).message
      .content[0];
    call.arguments = {
      request: {
        parentId: "x",
        timestamp: SK_B,
        id: SK_C,
        type: SK_D,
        fromId: SK_A,
        password: "hunter2 with spaces",
      },
    };
    const leaf = await appendEntry(scope, f.session.id, shaped, { commit: f.initCommit });
    const { preview, previewBody } = await share(f.owner, f.session.id, { leafId: leaf.id });
    const [entry] = preview.snapshot.entries as unknown as Record<string, unknown>[];
    const args = (entry.message as { content: { arguments: Record<string, unknown> }[] }).content[0]
      .arguments;
    expect(args).toEqual({
      request: { parentId: "x", timestamp: RK, id: RK, type: RK, fromId: RK, password: R },
    });
    // The entry's own fields stay: its fresh 8-hex id, its type and its timestamp.
    expect(entry.type).toBe("message");
    expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
    expect(preview.snapshot.header.timestamp).toBe(entry.timestamp);
    for (const secret of [SK_A, SK_B, SK_C, SK_D, "hunter2 with spaces"])
      expect(previewBody, secret).not.toContain(secret);
  });

  it("keeps redacted paths a tree: a directory that became a file's name is suffixed, and the fork writes both", async () => {
    const f = await ownerProject(scope, { [`d/${SK_A}`]: "file\n", [`d/${SK_B}/y.txt`]: "nested\n" });
    const leaf = await appendEntry(
      scope,
      f.session.id,
      { type: "message", message: { role: "user", content: "hi", timestamp: 1 } },
      { commit: f.initCommit },
    );
    const { preview, token } = await share(f.owner, f.session.id, { leafId: leaf.id, includeFiles: true });
    expect(preview.fileTexts).toEqual({ [`d/${RK}`]: "file\n", [`d/${RK}~2/y.txt`]: "nested\n" });
    const forker = await createTestUser("Tree forker");
    const forked = await call(routes.fork.POST, forker, `/api/s/${token}/fork`, { token }, { json: {} });
    expect(forked.status).toBe(201);
    const { project } = JSON.parse(forked.body) as { project: { rootPath: string } };
    const { vfs, scope: vs } = openWorkspaceVfs(forker.workspaceId, new DbScope());
    const texts = [
      await vfs.readText(`${project.rootPath}/d/${RK}`),
      await vfs.readText(`${project.rootPath}/d/${RK}~2/y.txt`),
    ];
    await vs.release();
    expect(texts).toEqual(["file\n", "nested\n"]);
  });

  it("redacts a value under a __proto__ key and shares a file named __proto__ (own properties, not the prototype)", async () => {
    const f = await ownerProject(scope, { ["__proto__"]: `key ${SK_A}\n`, "b.txt": "b\n" });
    const args = JSON.parse(
      `{"__proto__": "${SK_B}", "${SK_C}": 1, "nested": {"__proto__": "${SK_D}"}}`,
    ) as Record<string, unknown>;
    const entry = structuredClone(toolCall) as { message: { content: { arguments: unknown }[] } };
    entry.message.content[0].arguments = args;
    const leaf = await appendEntry(scope, f.session.id, entry as NewEntry, { commit: f.initCommit });
    const { preview, previewBody, token } = await share(f.owner, f.session.id, {
      leafId: leaf.id,
      includeFiles: true,
    });
    const shared = (
      preview.snapshot.entries[0] as unknown as { message: { content: { arguments: object }[] } }
    ).message.content[0].arguments;
    expect(Object.entries(shared)).toEqual([
      ["__proto__", RK],
      [RK, 1],
      ["nested", JSON.parse(`{"__proto__": "${RK}"}`)],
    ]);
    expect(Object.entries(preview.fileTexts)).toEqual([
      ["__proto__", `key ${RK}\n`],
      ["b.txt", "b\n"],
    ]);
    const bodies = await readAll(token, ["__proto__"]);
    expect(bodies.map((b) => b.status)).toEqual([200, 200]);
    expect(bodies[1].body).toBe(`key ${RK}\n`);
    for (const s of [SK_A, SK_B, SK_C, SK_D]) expect(`${previewBody}${bodies[0].body}`).not.toContain(s);
  });

  it("names the part of an entry a redaction is in: a !command's command and output are told apart", async () => {
    const f = await ownerProject(scope, { "a.txt": "a\n" });
    const leaf = await appendEntry(scope, f.session.id, {
      type: "message",
      message: {
        role: "bashExecution",
        command: `echo ${SK_A}`,
        output: `${SK_A}\n`,
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: 1,
      },
    } as NewEntry);
    const { preview, token } = await share(f.owner, f.session.id, { leafId: leaf.id });
    expect(preview.snapshot.redactions).toEqual([
      {
        site: { kind: "entry", entry: 0, part: "command", line: 1 },
        rule: "@secretlint/secretlint-rule-pattern",
        kind: "SecretKeySk",
        excerpt: `echo ${RK}`,
      },
      {
        site: { kind: "entry", entry: 0, part: "output", line: 1 },
        rule: "@secretlint/secretlint-rule-pattern",
        kind: "SecretKeySk",
        excerpt: RK,
      },
    ]);
    const page = await call(sharePage, null, `/s/${token}`, { token });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<a href="#e0">Entry 1</a> (command), line 1');
    expect(page.body).toContain('<a href="#e0">Entry 1</a> (output), line 1');
    expect(page.body).not.toContain(SK_A);
  });
});
