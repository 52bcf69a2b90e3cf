/** pi's settings files on the Postgres VFS: global and project merged, the project's only when trusted. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPiSettings, mergeSettings } from "@/lib/resources/pi-settings";
import { createTestVfs } from "../../helpers/vfs";

let t: Awaited<ReturnType<typeof createTestVfs>>;
beforeAll(async () => {
  t = await createTestVfs();
  await t.fs.writeFile(
    "/.pi/agent/settings.json",
    JSON.stringify({ retry: { maxRetries: 5, baseDelayMs: 100 }, theme: "dark" }),
  );
  await t.fs.writeFile("/p/.pi/settings.json", `\uFEFF${JSON.stringify({ retry: { baseDelayMs: 7 } })}`);
  await t.fs.writeFile("/bad/.pi/settings.json", "{ nope");
  await t.fs.flush();
});
afterAll(() => t.cleanup());

/** The engine's own JSON.parse message for `text` (V8's wording, not hard-coded). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("parsed");
}

const load = (cwd: string, projectTrusted: boolean) =>
  loadPiSettings({ agentFs: t.fs, agentDir: "/.pi/agent", projectFs: t.fs, cwd, projectTrusted });

describe("loadPiSettings", () => {
  it("merges a trusted project's settings over the global ones", async () => {
    expect(await load("/p", true)).toEqual({
      settings: { retry: { maxRetries: 5, baseDelayMs: 7 }, theme: "dark" },
      errors: [],
    });
  });
  it("ignores the project's file when the project is not trusted", async () => {
    expect(await load("/p", false)).toEqual({
      settings: { retry: { maxRetries: 5, baseDelayMs: 100 }, theme: "dark" },
      errors: [],
    });
  });
  it("skips an unparsable file and reports it", async () => {
    const out = await load("/bad", true);
    expect(out.settings).toEqual({ retry: { maxRetries: 5, baseDelayMs: 100 }, theme: "dark" });
    expect(out.errors).toEqual([
      {
        type: "warning",
        message: `Settings file skipped (${jsonError("{ nope")}); its settings do not apply until it is a valid JSON object`,
        path: "/bad/.pi/settings.json",
      },
    ]);
  });
  it("reads nothing where there are no files", async () => {
    expect(
      await loadPiSettings({
        agentFs: t.fs,
        agentDir: "/none",
        projectFs: t.fs,
        cwd: "/none",
        projectTrusted: true,
      }),
    ).toEqual({ settings: {}, errors: [] });
  });
});

describe("mergeSettings", () => {
  it("merges objects key by key and replaces the rest", () => {
    expect(mergeSettings({ a: { x: 1, y: 2 }, b: [1], c: 1 }, { a: { y: 3 }, b: [2], d: { z: 1 } })).toEqual({
      a: { x: 1, y: 3 },
      b: [2],
      c: 1,
      d: { z: 1 },
    });
  });
});
