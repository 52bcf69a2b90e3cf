import { describe, expect, it } from "vitest";
import type { BranchTurns, FileChange, TurnChanges } from "@/components/chat/checkpoints-client";
import { changesSearch } from "@/components/chat/checkpoints-client";
import {
  countsLabel,
  joinPaths,
  placeTurnSummaries,
  revertConfirmText,
  revertedPaths,
  revertedText,
  revertUndoneText,
  sessionTarget,
  statusLetter,
  stepIndex,
  toolCallTarget,
  totals,
  turnTarget,
  undoRevertConfirmText,
} from "@/components/chat/turn-changes-view";
import type { AgentMessage } from "@/lib/agent/messages";

const user = (timestamp: number): AgentMessage =>
  ({ role: "user", content: "go", timestamp }) as AgentMessage;
const assistant = { role: "assistant", content: [], timestamp: 0 } as unknown as AgentMessage;
const toolResult = {
  role: "toolResult",
  toolCallId: "c1",
  content: [],
  timestamp: 0,
} as unknown as AgentMessage;
const file = (path: string, over: Partial<FileChange> = {}): FileChange => ({
  path,
  status: "modified",
  additions: 2,
  deletions: 1,
  binary: false,
  ...over,
});
const turn = (userEntryId: string, userTimestamp: number | null, files = [file("a.txt")]): TurnChanges => ({
  userEntryId,
  lastEntryId: `${userEntryId}-last`,
  userTimestamp,
  toolCalls: {},
  reverts: [],
  from: `${userEntryId}-from`,
  to: `${userEntryId}-to`,
  files,
});

describe("placeTurnSummaries", () => {
  it("puts each turn after its last message before the next user message, matched by timestamp", () => {
    const messages = [user(10), assistant, toolResult, assistant, user(20), assistant, user(30), assistant];
    const [t1, t3] = [turn("u1", 10), turn("u3", 30)];
    expect([...placeTurnSummaries(messages, [t1, t3])]).toEqual([
      [3, t1],
      [7, t3],
    ]);
  });

  it("skips turns whose user message is not shown or has no timestamp, and ends at a hidden tool result", () => {
    const messages = [user(20), assistant, toolResult];
    expect([...placeTurnSummaries(messages, [turn("old", 10), turn("nots", null), turn("u2", 20)])]).toEqual([
      [2, turn("u2", 20)],
    ]);
  });

  it("takes the newest user message when a timestamp repeats", () => {
    const messages = [user(5), assistant, user(5), assistant, assistant];
    expect([...placeTurnSummaries(messages, [turn("u", 5)]).keys()]).toEqual([4]);
  });
});

describe("labels", () => {
  it("reads a change as git does", () => {
    expect([statusLetter("added"), statusLetter("modified"), statusLetter("deleted")]).toEqual([
      "A",
      "M",
      "D",
    ]);
    expect(countsLabel(file("a", { additions: 3, deletions: 0 }))).toBe("+3 −0");
    expect(countsLabel(file("a", { binary: true, additions: null, deletions: null }))).toBe("binary");
    expect(countsLabel(file("a", { additions: null, deletions: null }))).toBe("large");
    expect(
      totals([file("a"), file("b", { additions: 5, deletions: 4 }), file("c", { additions: null })]),
    ).toEqual({
      additions: 7,
      deletions: 6,
    });
  });

  it("names the files of a revert", () => {
    expect([joinPaths([]), joinPaths(["a"]), joinPaths(["a", "b"]), joinPaths(["a", "b", "c"])]).toEqual([
      "",
      "a",
      "a and b",
      "a, b and c",
    ]);
    expect(revertedText(["a.txt"])).toBe("Reverted a.txt.");
    expect(revertedText([])).toBe("Nothing needed reverting.");
    expect(revertConfirmText([file("a.txt"), file("b.txt")])).toBe(
      "Revert the 2 files this turn changed (a.txt and b.txt)? The revert is a new checkpoint; nothing is lost.",
    );
    expect(revertConfirmText([file("a.txt")], "a.txt")).toBe(
      "Revert a.txt to what it was before this turn? The revert is a new checkpoint; nothing is lost.",
    );
  });

  it("words an undo of a revert, and finds which standing revert reverted each file last", () => {
    expect(undoRevertConfirmText(["a.txt"])).toBe(
      "Undo the revert of a.txt? It gets this turn's changes back, as a new checkpoint; nothing is lost.",
    );
    expect(undoRevertConfirmText(["a.txt", "b.txt"])).toBe(
      "Undo the revert of a.txt and b.txt? They get this turn's changes back, as a new checkpoint; nothing is lost.",
    );
    expect(revertUndoneText(["a.txt"])).toBe("Revert undone: a.txt has this turn's changes again.");
    expect(revertUndoneText(["a.txt", "b.txt"])).toBe(
      "Revert undone: a.txt and b.txt have this turn's changes again.",
    );
    expect([...revertedPaths([{ paths: ["a.txt"] }, { paths: ["a.txt", "b.txt"] }])]).toEqual([
      ["a.txt", 1],
      ["b.txt", 1],
    ]);
    expect(revertedPaths([]).size).toBe(0);
  });
});

describe("diff view navigation and targets", () => {
  it("steps between files within the list", () => {
    expect([stepIndex(0, 1, 3), stepIndex(2, 1, 3), stepIndex(0, -1, 3), stepIndex(-1, 1, 3)]).toEqual([
      1, 2, 0, 0,
    ]);
    expect(stepIndex(0, 1, 0)).toBe(-1);
  });

  it("opens a turn, a tool call, or the whole session from its first turn to the leaf", () => {
    expect(turnTarget(turn("u1", 1), "a.txt")).toEqual({
      query: { from: "u1-from", to: "u1-to" },
      title: "Changes of this turn",
      path: "a.txt",
    });
    expect(toolCallTarget("call_1", "write")).toEqual({
      query: { toolCallId: "call_1" },
      title: "Changes of write",
      path: undefined,
    });
    const branch: BranchTurns = { turns: [turn("u1", 1), turn("u2", 2)], leafId: "leaf" };
    expect(sessionTarget(branch)).toEqual({
      query: { from: "u1-from", to: "leaf" },
      title: "Session changes",
    });
    expect(sessionTarget({ turns: [], leafId: "leaf" })).toBeNull();
    expect(sessionTarget(null)).toBeNull();
  });

  it("builds the changes query string", () => {
    expect(changesSearch({ from: "a", to: "b" }, "dir/x y.ts")).toBe("from=a&to=b&path=dir%2Fx+y.ts");
    expect(changesSearch({ toolCallId: "c1" })).toBe("toolCallId=c1");
  });
});
