/**
 * Skill discovery is bounded (issue 9: a 2,000-level tree in the agent dir raised every session's time to
 * first token from 70 to 390 ms): folders more than 64 levels below the discovery root are not searched.
 */
import { describe, expect, it } from "vitest";
import { loadSkillsFromDir } from "@/lib/resources/skills";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";

const levels = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`).join("/");
const skill = (name: string) => `---\nname: ${name}\ndescription: ${name} skill\n---\nbody`;

describe("skill discovery depth bound", () => {
  it("finds skills down to 64 levels, skips a 2,000-level tree below that with one warning", async () => {
    const fs = new Vfs(
      new MemoryVfsStore([
        { path: "/s/near/SKILL.md", data: skill("near") },
        { path: `/s/${levels(63)}/edge/SKILL.md`, data: skill("edge") },
        { path: `/s/deep/${levels(2000)}/SKILL.md`, data: skill("deep") },
      ]),
    );
    const r = await loadSkillsFromDir(fs, { dir: "/s", source: "user" });
    expect(r.skills.map((s) => s.name)).toEqual(["edge", "near"]);
    expect(r.diagnostics).toEqual([
      {
        type: "warning",
        message: "skill discovery stops 64 levels below /s; deeper folders are not searched",
        path: `/s/deep/${levels(64)}`,
      },
    ]);
  });

  it("stops a folder that links to its own parent (a cycle) at the bound", async () => {
    const fs = new Vfs(
      new MemoryVfsStore([
        { path: "/s/a/SKILL.md", data: skill("a") },
        { path: "/s/loop/back", kind: "symlink", data: ".." },
      ]),
    );
    const r = await loadSkillsFromDir(fs, { dir: "/s", source: "user" });
    // /s/loop/back is /s again: a skill every two levels, down to level 63.
    expect(r.skills.map((s) => s.filePath)).toEqual([
      "/s/a/SKILL.md",
      ...Array.from({ length: 31 }, (_, i) => `/s/loop${"/back/loop".repeat(i)}/back/a/SKILL.md`),
    ]);
    const bottom = `/s/loop${"/back/loop".repeat(31)}/back`;
    expect(r.diagnostics).toEqual(
      ["a", "loop"].map((name) => ({
        type: "warning",
        message: "skill discovery stops 64 levels below /s; deeper folders are not searched",
        path: `${bottom}/${name}`,
      })),
    );
  });
});
