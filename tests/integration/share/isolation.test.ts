/**
 * A share holds one root→leaf path and nothing else (docs/sharing.md): no text, file or entry id of a sibling branch,
 * no original entry id at all; later turns never change a published share; re-sharing makes a new token and snapshot.
 */
import { describe, expect, it } from "vitest";
import { entryCommit } from "@/lib/session/checkpoint-rows";
import { loadAllEntries } from "@/lib/session/context-load";
import { branch, getSession } from "@/lib/session/store";
import type { ShareSnapshot } from "@/lib/share/types";
import { readAll, share } from "./helpers";
import { mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

async function twoBranches() {
  const f = await ownerProject(scope, { "base.txt": "base\n" });
  await prompt(mock, f, "root question", [], "Root answer.");
  const fork = (await getSession(scope, f.session.id))!.leafId!;
  await prompt(
    mock,
    f,
    "alpha question ALPHA_ONLY_TEXT",
    [{ name: "write", input: { path: "notes.txt", content: "ALPHA_FILE_BODY\n" } }],
    "Alpha done.",
    "a",
  );
  const leafA = (await getSession(scope, f.session.id))!.leafId!;
  await branch(scope, f.session.id, fork);
  await prompt(
    mock,
    f,
    "beta question BETA_ONLY_TEXT",
    [
      { name: "write", input: { path: "notes.txt", content: "BETA_FILE_BODY\n" } },
      { name: "write", input: { path: "beta-extra.txt", content: "BETA_EXTRA_FILE\n" } },
      { name: "bash", input: { command: "echo BETA_TOOL_OUTPUT" } },
    ],
    "Beta done BETA_ANSWER.",
    "b",
  );
  const leafB = (await getSession(scope, f.session.id))!.leafId!;
  return { f, leafA, leafB };
}

describe("share isolation", () => {
  it("serves branch A's path and files only: nothing of B, no original entry id", async () => {
    const { f, leafA, leafB } = await twoBranches();
    const { token, preview } = await share(f.owner, f.session.id, { leafId: leafA, includeFiles: true });
    expect(preview.snapshot.files?.map((x) => [x.path, x.omitted ?? null])).toEqual([
      ["base.txt", null],
      ["notes.txt", null],
    ]);
    const bodies = await readAll(token, ["base.txt", "notes.txt", "beta-extra.txt"]);
    expect(bodies.map((b) => b.status)).toEqual([200, 200, 200, 404]);
    expect(bodies[2].body).toBe("ALPHA_FILE_BODY\n");
    const all = bodies.map((b) => b.body).join("\n");
    expect(all).toContain("ALPHA_ONLY_TEXT");
    for (const only of [
      "BETA_ONLY_TEXT",
      "BETA_FILE_BODY",
      "BETA_EXTRA_FILE",
      "BETA_TOOL_OUTPUT",
      "BETA_ANSWER",
    ])
      expect(all).not.toContain(only);
    const ids = (await loadAllEntries(scope, f.session.id)).map((e) => e.id);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(all, `original entry id ${id}`).not.toContain(id);
    const commitB = (await entryCommit(scope, f.session.id, leafB))!;
    expect(all).not.toContain(commitB);
    const snapshot = (JSON.parse(bodies[0].body) as { snapshot: ShareSnapshot }).snapshot;
    // One chain: each entry's parent is the one before it.
    expect(snapshot.entries.map((e) => e.parentId)).toEqual([
      null,
      ...snapshot.entries.slice(0, -1).map((e) => e.id),
    ]);
    expect(snapshot).toEqual(preview.snapshot);
  });

  it("is immutable: a later turn does not change it; re-sharing makes a new token and snapshot", async () => {
    const { f, leafA } = await twoBranches();
    const first = await share(f.owner, f.session.id, { leafId: leafA, includeFiles: true });
    const before = await readAll(first.token, ["notes.txt"]);
    await branch(scope, f.session.id, leafA);
    await prompt(
      mock,
      f,
      "later turn LATER_TEXT",
      [{ name: "write", input: { path: "notes.txt", content: "LATER_FILE\n" } }],
      "Later.",
      "l",
    );
    const after = await readAll(first.token, ["notes.txt"]);
    expect(after).toEqual(before);
    expect(after.map((b) => b.body).join("")).not.toContain("LATER");
    const leaf = (await getSession(scope, f.session.id))!.leafId!;
    const second = await share(f.owner, f.session.id, { leafId: leaf, includeFiles: true });
    expect(second.token).not.toBe(first.token);
    expect(second.summary.id).not.toBe(first.summary.id);
    const again = await readAll(second.token, ["notes.txt"]);
    expect(again[1].body).toBe("LATER_FILE\n");
    expect(again[0].body).toContain("LATER_TEXT");
    expect(await readAll(first.token, ["notes.txt"])).toEqual(before);
  });
});
