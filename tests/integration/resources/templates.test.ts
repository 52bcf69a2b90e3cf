import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  expandPromptTemplate,
  loadPromptTemplatesFromDir,
  type PromptTemplate,
  parseCommandArgs,
  substituteArgs,
} from "@/lib/resources/prompt-templates";
import { loadResources } from "@/lib/resources/resource-loader";
import { build, createTestVfs, type TestVfs } from "./fixtures";

const tpl = (name: string, content: string): PromptTemplate => ({
  name,
  content,
  description: "",
  source: "path",
  filePath: `/t/${name}.md`,
});

describe("prompt templates (pi 5.1–5.16)", () => {
  it("5.1 unquoted whitespace separates, runs collapse", () => {
    expect(parseCommandArgs("a\n\n\tb  c")).toEqual(["a", "b", "c"]);
  });
  it("5.2 double and single quotes group; the other kind inside is literal", () => {
    expect(parseCommandArgs('"first arg" second')).toEqual(["first arg", "second"]);
    expect(parseCommandArgs("'x y' z")).toEqual(["x y", "z"]);
    expect(parseCommandArgs(`"it's" 'say "hi"'`)).toEqual(["it's", 'say "hi"']);
  });
  it('5.3 Strata fix: an empty quoted string is an empty argument (pi drops it: [" "])', () => {
    expect(parseCommandArgs('"" " "')).toEqual(["", " "]);
    expect(parseCommandArgs("a '' b")).toEqual(["a", "", "b"]);
    expect(parseCommandArgs('""')).toEqual([""]);
    expect(parseCommandArgs(`"" ''`)).toEqual(["", ""]);
    // Quotes next to text join it, as in pi.
    expect(parseCommandArgs('a""b x"" ""y')).toEqual(["ab", "x", "y"]);
    expect(parseCommandArgs("")).toEqual([]);
    expect(parseCommandArgs("  \n ")).toEqual([]);
  });
  it("5.3 the empty argument takes its place: $2 is the one after it, ${1:-d} still defaults", () => {
    const t = [tpl("pick", "[$1] [$2] [${1:-none}] [$@]")];
    expect(expandPromptTemplate('/pick "" second', t)).toBe("[] [second] [none] [ second]");
    expect(expandPromptTemplate("/pick '' ''", t)).toBe("[] [] [none] [ ]");
  });
  it("5.4 backslash is not an escape", () => {
    expect(parseCommandArgs('"quoted \\"text\\""')).toEqual(["quoted \\text\\"]);
  });
  it("5.5 Strata fix: an unclosed quote is a literal character (pi runs it to the end)", () => {
    expect(parseCommandArgs('unterminated "quote here')).toEqual(["unterminated", '"quote', "here"]);
    expect(parseCommandArgs("'tis fine")).toEqual(["'tis", "fine"]);
    expect(parseCommandArgs('say "hi')).toEqual(["say", '"hi']);
    expect(parseCommandArgs('"')).toEqual(['"']);
    // Only the quote left without a partner is literal; the pairs before it still group.
    expect(parseCommandArgs(`'a b' 'c d`)).toEqual(["a b", "'c", "d"]);
    // An unclosed quote of one kind does not stop the other kind from grouping.
    expect(parseCommandArgs(`x "y 'z w' v`)).toEqual(["x", '"y', "z w", "v"]);
    expect(expandPromptTemplate('/review "src/a.ts perf', [tpl("review", "$1|$2|$@")])).toBe(
      '"src/a.ts|perf|"src/a.ts perf',
    );
  });
  it("5.5 Strata fix: an in-word apostrophe is literal", () => {
    expect(parseCommandArgs("it's")).toEqual(["it's"]); // pi: ["its"] (docs/pi-differences.md)
    expect(parseCommandArgs("don't touch the user's file")).toEqual([
      "don't",
      "touch",
      "the",
      "user's",
      "file",
    ]);
  });
  it("5.6 unquoted newlines separate", () => {
    expect(parseCommandArgs("label-2\n\nHere is some description #2.")).toEqual([
      "label-2",
      "Here",
      "is",
      "some",
      "description",
      "#2.",
    ]);
  });
  it("5.7 $ARGUMENTS and $@ join all args", () => {
    expect(substituteArgs("Test: $@", ["a", "b", "c"])).toBe("Test: a b c");
    expect(substituteArgs("Test: $ARGUMENTS", ["a", "b", "c"])).toBe("Test: a b c");
  });
  it("5.8 $N positional, out of range empty, $0 empty, $10 tenth", () => {
    expect(substituteArgs("$1 $2 $3 $4 $5", ["a", "b"])).toBe("a b   ");
    expect(substituteArgs("$0", ["a"])).toBe("");
    expect(substituteArgs("$10", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "ten"])).toBe("ten");
    expect(substituteArgs("$1.5", ["a"])).toBe("a.5");
  });
  it("5.9 ${N:-default}", () => {
    expect(substituteArgs("Mode: ${1:-brief}", [""])).toBe("Mode: brief");
    expect(substituteArgs("Mode: ${2:-a long default}", ["x"])).toBe("Mode: a long default");
    expect(substituteArgs("Mode: ${1:-brief}", ["full"])).toBe("Mode: full");
  });
  it("5.10 ${@:-x} and ${ARGUMENTS:-x}", () => {
    expect(substituteArgs("${@:-none}", [])).toBe("none");
    expect(substituteArgs("${ARGUMENTS:-none}", ["a", "b"])).toBe("a b");
  });
  it("5.11 slices ${@:N} and ${@:N:L}; N=0 is 1; out of range empty", () => {
    expect(substituteArgs("${@:2:2}", ["a", "b", "c", "d"])).toBe("b c");
    expect(substituteArgs("${@:2}", ["a", "b", "c"])).toBe("b c");
    expect(substituteArgs("${@:0}", ["a", "b"])).toBe("a b");
    expect(substituteArgs("${@:5}", ["a"])).toBe("");
  });
  it("5.12 values are not re-scanned", () => {
    expect(substituteArgs("$ARGUMENTS", ["$1", "$ARGUMENTS"])).toBe("$1 $ARGUMENTS");
    expect(substituteArgs("${3:-$ARGUMENTS}", ["a", "b"])).toBe("$ARGUMENTS");
  });
  it("5.13 case variants and stray dollars stay literal", () => {
    expect(substituteArgs("$arguments $Arguments $A $$ $", ["x"])).toBe("$arguments $Arguments $A $$ $");
  });
  it("5.14 no escape for dollars", () => {
    expect(substituteArgs("Price: \\$100", [])).toBe("Price: \\");
  });
  it("5.15 expandPromptTemplate", () => {
    const templates = [tpl("review", "Review $1 focusing on ${@:2}. All: $ARGUMENTS")];
    expect(expandPromptTemplate('/review src/a.ts perf "memory use"', templates)).toBe(
      "Review src/a.ts focusing on perf memory use. All: src/a.ts perf memory use",
    );
    expect(expandPromptTemplate("/unknown x", templates)).toBe("/unknown x");
    expect(expandPromptTemplate("/", templates)).toBe("/");
    expect(expandPromptTemplate(" /review x", templates)).toBe(" /review x");
  });
  it("5.16 name separated from args by a newline", () => {
    expect(expandPromptTemplate("/review\nfile.ts\n\nmore words", [tpl("review", "$1|$2|$3")])).toBe(
      "file.ts|more|words",
    );
  });
});

describe("prompt templates on the VFS (pi 5.17–5.19)", () => {
  let t: TestVfs;
  let agent: TestVfs;
  beforeEach(async () => {
    t = await createTestVfs();
    agent = await createTestVfs();
  });
  afterEach(async () => {
    await t.cleanup();
    await agent.cleanup();
  });

  it("5.17 every *.md directly in the dir; name, content, description, argumentHint; symlinks followed", async () => {
    const long = "x".repeat(70);
    const fs = await build(t, {
      "/p/prompts/review.md": "---\ndescription: Review code\nargument-hint: <file>\n---\n\nReview $1\n",
      "/p/prompts/plain.md": `\n\n${long}\nsecond\n`,
      "/p/prompts/nested/deep.md": "---\ndescription: deep\n---\nx",
      "/p/prompts/notes.txt": "no",
      "/p/shared/linked.md": "Linked body",
      "/p/prompts/linked.md": { link: "../shared/linked.md" },
    });
    const ts = await loadPromptTemplatesFromDir(fs, "/p/prompts", { source: "project" });
    expect(ts.map((x) => x.name)).toEqual(["linked", "plain", "review"]);
    expect(ts[2]).toEqual({
      name: "review",
      description: "Review code",
      argumentHint: "<file>",
      content: "Review $1",
      source: "project",
      filePath: "/p/prompts/review.md",
    });
    expect(ts[1].content).toBe(`\n\n${long}\nsecond\n`);
    expect(ts[1].description).toBe(`${"x".repeat(60)}...`);
    expect(ts[0].description).toBe("Linked body");
  });

  it("5.18 argument-hint empty is absent", async () => {
    const fs = await build(t, { "/p/prompts/a.md": '---\nargument-hint: ""\n---\nbody' });
    const [a] = await loadPromptTemplatesFromDir(fs, "/p/prompts");
    expect("argumentHint" in a).toBe(false);
  });

  it("5.19 trusted project prompts win over user prompts; collisions reported", async () => {
    const agentFs = await build(agent, {
      "/u/.pi/agent/prompts/review.md": "user review",
      "/u/.pi/agent/prompts/only-user.md": "u",
    });
    const fs = await build(t, { "/p/.pi/prompts/review.md": "project review" });
    const r = await loadResources({ fs, cwd: "/p", agentFs, agentDir: "/u/.pi/agent", projectTrusted: true });
    expect(r.promptTemplates.map((x) => [x.name, x.content])).toEqual([
      ["review", "project review"],
      ["only-user", "u"],
    ]);
    expect(r.diagnostics).toContainEqual({
      type: "collision",
      message: 'name "/review" collision',
      path: "/u/.pi/agent/prompts/review.md",
      collision: {
        resourceType: "prompt",
        name: "review",
        winnerPath: "/p/.pi/prompts/review.md",
        loserPath: "/u/.pi/agent/prompts/review.md",
      },
    });
    const untrusted = await loadResources({
      fs: t.reopen(),
      cwd: "/p",
      agentFs: agent.reopen(),
      agentDir: "/u/.pi/agent",
      projectTrusted: false,
    });
    expect(untrusted.promptTemplates.map((x) => x.content)).toEqual(["u", "user review"]);
  });
});
