import { describe, expect, it } from "vitest";
import { listSlashCommands } from "@/lib/projects/slash-commands";
import type { PromptTemplate } from "@/lib/resources/prompt-templates";
import type { Skill } from "@/lib/resources/skills";

const template = (name: string, description: string, argumentHint?: string): PromptTemplate => ({
  name,
  description,
  ...(argumentHint ? { argumentHint } : {}),
  content: "body",
  source: "project",
  filePath: `/p/.pi/prompts/${name}.md`,
});
const skill = (name: string, description: string): Skill => ({
  name,
  description,
  filePath: `/p/.pi/skills/${name}/SKILL.md`,
  baseDir: `/p/.pi/skills/${name}`,
  source: "project",
  disableModelInvocation: false,
});

describe("listSlashCommands", () => {
  it("lists /compact, templates, extension commands, then skills as skill:<name>, each with its description", () => {
    expect(
      listSlashCommands(
        {
          promptTemplates: [template("review", "Review the diff", "<path>"), template("fix", "Fix it")],
          skills: [skill("x", "Does x.")],
        },
        [{ name: "hello", description: "Say hello" }, { name: "bare" }],
      ),
    ).toEqual([
      {
        name: "compact",
        description: "Manually compact the session context",
        source: "builtin",
        argumentHint: "[instructions]",
      },
      { name: "review", description: "Review the diff", source: "template", argumentHint: "<path>" },
      { name: "fix", description: "Fix it", source: "template" },
      { name: "hello", description: "Say hello", source: "extension" },
      { name: "bare", description: "", source: "extension" },
      { name: "skill:x", description: "Does x.", source: "skill" },
    ]);
  });

  it("lists a name once, the first one", () => {
    const list = listSlashCommands({ promptTemplates: [template("compact", "Mine")], skills: [] });
    expect(list.map((c) => `${c.name}:${c.source}`)).toEqual(["compact:builtin"]);
  });
});
