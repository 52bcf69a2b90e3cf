import { describe, expect, it } from "vitest";
import {
  applySlashPick,
  filterSlashCommands,
  type SlashCommand,
  slashQuery,
} from "@/components/chat/slash-commands";

const cmd = (name: string, source: SlashCommand["source"] = "template"): SlashCommand => ({
  name,
  description: `${name} description`,
  source,
});

const COMMANDS = [
  cmd("compact", "builtin"),
  cmd("review"),
  cmd("preview-release"),
  cmd("skill:review-code", "skill"),
  cmd("skill:x", "skill"),
];
const names = (list: SlashCommand[]) => list.map((c) => c.name);

describe("slashQuery", () => {
  it("is the text after a leading / up to the caret while it has no white space", () => {
    expect(slashQuery("/", 1)).toBe("");
    expect(slashQuery("/sk", 3)).toBe("sk");
    expect(slashQuery("/skill:re", 9)).toBe("skill:re");
    expect(slashQuery("/review src", 3)).toBe("re");
  });

  it("is null without a leading /, after white space, with the caret before the / and for !commands", () => {
    expect(slashQuery("", 0)).toBeNull();
    expect(slashQuery("hello /x", 8)).toBeNull();
    expect(slashQuery(" /x", 3)).toBeNull();
    expect(slashQuery("/review src", 8)).toBeNull();
    expect(slashQuery("/review ", 8)).toBeNull();
    expect(slashQuery("/x", 0)).toBeNull();
    expect(slashQuery("!ls", 3)).toBeNull();
  });
});

describe("filterSlashCommands", () => {
  it("lists everything in the given order for an empty query", () => {
    expect(names(filterSlashCommands(COMMANDS, ""))).toEqual(names(COMMANDS));
  });

  it("ranks prefix, then name-part, then substring, then in-order letters; case-insensitive", () => {
    expect(names(filterSlashCommands(COMMANDS, "rev"))).toEqual([
      "review",
      "skill:review-code",
      "preview-release",
    ]);
    expect(names(filterSlashCommands(COMMANDS, "REL"))).toEqual(["preview-release"]);
    expect(names(filterSlashCommands(COMMANDS, "cpt"))).toEqual(["compact"]);
    expect(names(filterSlashCommands(COMMANDS, "skill:"))).toEqual(["skill:review-code", "skill:x"]);
    expect(names(filterSlashCommands(COMMANDS, "code"))).toEqual(["skill:review-code"]);
  });

  it("keeps the given order within a rank and answers [] when nothing matches", () => {
    expect(names(filterSlashCommands(COMMANDS, "e"))).toEqual([
      "review",
      "preview-release",
      "skill:review-code",
    ]);
    expect(names(filterSlashCommands(COMMANDS, "r"))).toEqual([
      "review",
      "preview-release",
      "skill:review-code",
    ]);
    expect(filterSlashCommands(COMMANDS, "zzz")).toEqual([]);
  });
});

describe("applySlashPick", () => {
  it("replaces the leading token by /name and one space, keeping what followed", () => {
    expect(applySlashPick("/rev", "review")).toEqual({ value: "/review ", caret: 8 });
    expect(applySlashPick("/", "skill:x")).toEqual({ value: "/skill:x ", caret: 9 });
    expect(applySlashPick("/re   src/a.ts", "review")).toEqual({ value: "/review src/a.ts", caret: 8 });
  });
});
