import { describe, expect, it } from "vitest";
import type { AgentMessage, BashExecutionMessage } from "@/lib/agent/messages";
import { blockImages, createConvertToLlm, IMAGE_READING_DISABLED } from "@/lib/context/block-images";
import {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  bashExecutionToText,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  convertToLlm,
} from "@/lib/context/convert-to-llm";
import { emptyUsage, type Message, type UserMessage } from "@/lib/llm/types";

const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
const text = (t: string) => ({ type: "text" as const, text: t });
const bash = (over: Partial<BashExecutionMessage>): BashExecutionMessage => ({
  role: "bashExecution",
  command: "ls",
  output: "",
  cancelled: false,
  truncated: false,
  timestamp: 7,
  ...over,
});

describe("blockImages (pi 11)", () => {
  it("11.1 replaces images in user and tool results and drops a placeholder after a placeholder", () => {
    const user: UserMessage = {
      role: "user",
      content: [text("two pics"), img, img, text("end"), img],
      timestamp: 1,
    };
    const [out] = blockImages([user]) as UserMessage[];
    expect((out!.content as { text: string }[]).map((b) => b.text)).toEqual([
      "two pics",
      "Image reading is disabled.",
      "end",
      "Image reading is disabled.",
    ]);
    const result: Message = {
      role: "toolResult",
      toolCallId: "t",
      toolName: "read",
      content: [img, img],
      isError: false,
      timestamp: 2,
    };
    expect(blockImages([result])[0]).toMatchObject({
      content: [{ type: "text", text: IMAGE_READING_DISABLED }],
    });
  });

  it("11.2 reads the setting on every call; strings and other roles are untouched", () => {
    let blocked = false;
    const convert = createConvertToLlm(() => blocked);
    const messages: AgentMessage[] = [
      { role: "user", content: [img], timestamp: 1 },
      { role: "user", content: "plain", timestamp: 2 },
    ];
    expect(convert(messages)[0]).toEqual(messages[0]);
    blocked = true;
    expect(convert(messages)[0]).toEqual({
      role: "user",
      content: [text(IMAGE_READING_DISABLED)],
      timestamp: 1,
    });
    expect(convert(messages)[1]).toBe(messages[1]);
    expect(messages[0]).toEqual({ role: "user", content: [img], timestamp: 1 });
  });
});

describe("convertToLlm (pi 12)", () => {
  it("12.1 bashExecution becomes user text with a fenced output", () => {
    expect(bashExecutionToText(bash({ output: "a\nb", exitCode: 0 }))).toBe("Ran `ls`\n```\na\nb\n```");
    expect(convertToLlm([bash({ output: "a\nb", exitCode: 0 })])).toEqual([
      { role: "user", content: [text("Ran `ls`\n```\na\nb\n```")], timestamp: 7 },
    ]);
  });

  it("12.2 no output and a non-zero exit code", () => {
    expect(bashExecutionToText(bash({ command: "false", exitCode: 1 }))).toBe(
      "Ran `false`\n(no output)\n\nCommand exited with code 1",
    );
  });

  it("12.3 cancelled and truncated", () => {
    expect(
      bashExecutionToText(
        bash({
          command: "sleep 9",
          output: "partial",
          cancelled: true,
          exitCode: 130,
          truncated: true,
          fullOutputPath: "/var/log/out.txt",
        }),
      ),
    ).toBe(
      "Ran `sleep 9`\n```\npartial\n```\n\n(command cancelled)\n\n[Output truncated. Full output: /var/log/out.txt]",
    );
  });

  it("12.4 excludeFromContext drops the command", () => {
    expect(convertToLlm([bash({ excludeFromContext: true })])).toEqual([]);
  });

  it("12.5 custom messages become user content without their metadata", () => {
    expect(
      convertToLlm([
        { role: "custom", customType: "x", content: "hi", display: true, details: { a: 1 }, timestamp: 3 },
        { role: "custom", customType: "y", content: [text("t"), img], display: false, timestamp: 4 },
      ]),
    ).toEqual([
      { role: "user", content: [text("hi")], timestamp: 3 },
      { role: "user", content: [text("t"), img], timestamp: 4 },
    ]);
  });

  it("12.6 compaction summary", () => {
    expect(COMPACTION_SUMMARY_PREFIX + COMPACTION_SUMMARY_SUFFIX).toBe(
      "The conversation history before this point was compacted into the following summary:\n\n<summary>\n\n</summary>",
    );
    expect(
      convertToLlm([{ role: "compactionSummary", summary: "did X", tokensBefore: 9, timestamp: 5 }]),
    ).toEqual([
      {
        role: "user",
        content: [
          text(
            "The conversation history before this point was compacted into the following summary:\n\n<summary>\ndid X\n</summary>",
          ),
        ],
        timestamp: 5,
      },
    ]);
  });

  it("12.7 branch summary has no newline before </summary>", () => {
    expect(BRANCH_SUMMARY_SUFFIX).toBe("</summary>");
    expect(convertToLlm([{ role: "branchSummary", summary: "did X", fromId: "e1", timestamp: 6 }])).toEqual([
      {
        role: "user",
        content: [text(`${BRANCH_SUMMARY_PREFIX}did X</summary>`)],
        timestamp: 6,
      },
    ]);
    expect(BRANCH_SUMMARY_PREFIX).toBe(
      "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n",
    );
  });

  it("12.8 provider roles pass through unchanged and in order", () => {
    const messages: Message[] = [
      { role: "system", content: "s", timestamp: 1 },
      { role: "user", content: "u", timestamp: 2 },
      {
        role: "assistant",
        content: [text("a")],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "m",
        usage: emptyUsage(),
        stopReason: "stop",
        timestamp: 3,
      },
      { role: "toolResult", toolCallId: "t", toolName: "r", content: [], isError: false, timestamp: 4 },
    ];
    const out = convertToLlm(messages);
    expect(out).toEqual(messages);
    for (const [i, m] of out.entries()) expect(m).toBe(messages[i]);
  });
});
