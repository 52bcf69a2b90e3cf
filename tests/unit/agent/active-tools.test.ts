/** pi 18.1 setActiveToolsByName / getActiveToolNames, and Strata's restore of the set from a transcript. */
import { describe, expect, it } from "vitest";
import { ActiveTools, transcriptActiveToolNames } from "@/lib/agent-session/active-tools";
import type { SystemMessage } from "@/lib/llm/types";
import { tool } from "./loop-helpers";

const registry = ["read", "bash", "edit", "write", "grep"].map((n) => tool(n));
const decl = (name: string) => ({ name, description: `${name} tool`, parameters: {} });
const sys = (fields: Partial<SystemMessage>): SystemMessage => ({
  role: "system",
  content: "",
  timestamp: 1,
  ...fields,
});

describe("ActiveTools", () => {
  it("starts with pi's defaults; names apply in the order named, duplicates and unknown names dropped; listeners told", () => {
    const active = new ActiveTools(registry);
    expect(active.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
    const seen: string[][] = [];
    active.onChange((tools) => seen.push(tools.map((t) => t.name)));
    active.setActiveToolsByName(["grep", "read", "grep", "nope"]);
    expect(active.getActiveToolNames()).toEqual(["grep", "read"]);
    expect(seen).toEqual([["grep", "read"]]);
    expect(active.all.map((t) => t.name)).toEqual(["read", "bash", "edit", "write", "grep"]);
  });

  it("restores the replayed toolsAdded of a transcript, [] when every tool was removed; keeps the set without tool fields", () => {
    const history = [
      sys({ sections: { preamble: "P" }, toolsAdded: [decl("read"), decl("bash"), decl("ls")] }),
      { role: "user" },
      sys({ toolsAdded: [decl("grep")], toolsRemoved: [{ name: "bash" }] }),
    ];
    expect(transcriptActiveToolNames(history, ["read", "bash", "grep"])).toEqual(["read", "grep"]);
    const active = new ActiveTools(registry);
    active.restoreFromTranscript(history);
    expect(active.getActiveToolNames()).toEqual(["read", "grep"]);
    active.restoreFromTranscript([...history, sys({ toolsRemoved: [{ name: "read" }, { name: "grep" }] })]);
    expect(active.getActiveToolNames()).toEqual([]);
    const fresh = new ActiveTools(registry);
    fresh.restoreFromTranscript([sys({ sections: { preamble: "P" } }), { role: "user" }]);
    expect(fresh.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
  });
});
