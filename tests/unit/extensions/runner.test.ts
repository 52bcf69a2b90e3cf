/** pi 10.1–10.11: ExtensionRunner. */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import { type ExtensionError, ExtensionRunner, LEADING_SYSTEM_REMOVED_ERROR } from "@/lib/extensions";
import type { SystemMessage } from "@/lib/llm/types";

const read = { name: "read", description: "Read", parameters: {} };
const head: SystemMessage = {
  role: "system",
  content: "",
  sections: { preamble: "P", cwd: "<cwd>\n/a\n</cwd>" },
  toolsAdded: [read],
  timestamp: 1,
};
const later: SystemMessage = {
  role: "system",
  content: "",
  sections: { cwd: "<cwd>\n/b\n</cwd>" },
  timestamp: 2,
};
const u = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 3 });
const a = (text: string): AgentMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "x",
  provider: "x",
  model: "x",
  usage: {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: "stop",
  timestamp: 4,
});
const transcript: AgentMessage[] = [head, u("one"), a("r1"), later, u("two")];
const brief = (m: AgentMessage) => {
  if (m.role === "system") return "system";
  const content = (m as { content: string | { text: string }[] }).content;
  return `${m.role}:${typeof content === "string" ? content : content[0].text}`;
};

async function runnerWith(
  ...setups: ((api: Parameters<Parameters<ExtensionRunner["registerExtension"]>[0]["setup"]>[0]) => void)[]
) {
  const runner = new ExtensionRunner();
  const errors: ExtensionError[] = [];
  runner.onError((e) => errors.push(e));
  for (const [i, setup] of setups.entries()) await runner.registerExtension({ path: `ext-${i}`, setup });
  return { runner, errors };
}

describe("ExtensionRunner", () => {
  it("10.1 context handlers see the conversation without system messages; unchanged keeps systems in place", async () => {
    let seen: string[] = [];
    const { runner } = await runnerWith((api) =>
      api.on("context", (e) => {
        seen = e.messages.map(brief);
      }),
    );
    const out = await runner.emitContext(transcript);
    expect(seen).toEqual(["user:one", "assistant:r1", "user:two"]);
    expect(out).toBe(transcript);
  });

  it("10.2 a changed list gets the replayed system head", async () => {
    const { runner } = await runnerWith((api) =>
      api.on("context", (e) => ({ messages: e.messages.slice(2) })),
    );
    const out = await runner.emitContext(transcript);
    expect(out[0]).toEqual({
      role: "system",
      content: "",
      sections: { preamble: "P", cwd: "<cwd>\n/b\n</cwd>" },
      toolsAdded: [read],
      timestamp: 1,
    });
    expect(out.slice(1).map(brief)).toEqual(["user:two"]);
  });

  it("10.3 an in-place edit counts as a change", async () => {
    const { runner } = await runnerWith((api) =>
      api.on("context", (e) => {
        e.messages.splice(0, 1);
      }),
    );
    const out = await runner.emitContext(transcript);
    expect(out.map(brief)).toEqual(["system", "assistant:r1", "user:two"]);
  });

  it("10.4 context_with_system sees the full list; dropping the leading system message is reported, output kept", async () => {
    const { runner, errors } = await runnerWith((api) =>
      api.on("context_with_system", (e) => ({ messages: e.messages.filter((m) => m.role !== "system") })),
    );
    const out = await runner.emitContext(transcript);
    expect(out.map(brief)).toEqual(["user:one", "assistant:r1", "user:two"]);
    expect(errors).toEqual([
      expect.objectContaining({
        extensionPath: "ext-0",
        event: "context_with_system",
        error: LEADING_SYSTEM_REMOVED_ERROR,
      }),
    ]);
    expect(LEADING_SYSTEM_REMOVED_ERROR).toBe(
      "Handler removed the leading system message; the request has no prompt or initial tool declarations. Keep it at index 0 or replace a dropped prefix with getCurrentSystemMessage().",
    );
  });

  it("10.5 a throwing handler is reported as {extensionPath, event, error, stack} and the chain continues", async () => {
    const { runner, errors } = await runnerWith(
      (api) =>
        api.on("context", () => {
          throw new Error("boom");
        }),
      (api) => api.on("context", (e) => ({ messages: e.messages.slice(1) })),
    );
    const out = await runner.emitContext(transcript);
    expect(out.slice(1).map(brief)).toEqual(["assistant:r1", "user:two"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ extensionPath: "ext-0", event: "context", error: "boom" });
    expect(errors[0].stack).toContain("boom");
  });

  it("10.6 load order, registration order within an extension, structuredClone of the messages", async () => {
    const order: string[] = [];
    const { runner } = await runnerWith(
      (api) => {
        api.on("context", () => void order.push("a1"));
        api.on("context", (e) => {
          order.push("a2");
          (e.messages[0] as { content: string }).content = "mutated";
        });
      },
      (api) => api.on("context", () => void order.push("b1")),
    );
    const original = structuredClone(transcript);
    await runner.emitContext(transcript);
    expect(order).toEqual(["a1", "a2", "b1"]);
    expect(transcript).toEqual(original);
  });

  it("10.7 before_agent_start: messages in order, forced prompt last wins and is seen by later handlers, errors skipped", async () => {
    const seen: string[] = [];
    const seenOptions: (string | undefined)[] = [];
    const { runner, errors } = await runnerWith(
      (api) =>
        api.on("before_agent_start", (e) => {
          seen.push(e.systemPrompt);
          return { message: { customType: "a", content: "A", display: true }, systemPrompt: "FIRST" };
        }),
      (api) =>
        api.on("before_agent_start", () => {
          throw new Error("nope");
        }),
      (api) =>
        api.on("before_agent_start", (e) => {
          seen.push(e.systemPrompt);
          seenOptions.push(e.systemPromptOptions.forceSystemPrompt);
          return { message: { customType: "b", content: null, display: false }, systemPrompt: "FORCED" };
        }),
    );
    const out = await runner.emitBeforeAgentStart(
      "hi",
      undefined,
      { x: 1 },
      () => "RENDERED",
      () => 9,
    );
    expect(seen).toEqual(["RENDERED", "FIRST"]);
    // pi: the forced text is `systemPromptOptions.forceSystemPrompt` for later handlers and in the outcome.
    expect(seenOptions).toEqual(["FIRST"]);
    expect(out.systemPromptOptions).toEqual({ x: 1, forceSystemPrompt: "FORCED" });
    expect(out.messages).toEqual([
      { role: "custom", customType: "a", content: "A", display: true, timestamp: 9 },
      { role: "custom", customType: "b", content: [], display: false, timestamp: 9 },
    ]);
    expect(out.forceSystemPrompt).toBe("FORCED");
    expect(errors.map((e) => `${e.extensionPath}:${e.event}:${e.error}`)).toEqual([
      "ext-1:before_agent_start:nope",
    ]);
  });

  it("10.7 a forced prompt set or cleared in the options by a handler is what later handlers and the outcome get", async () => {
    const seen: string[] = [];
    const { runner } = await runnerWith(
      (api) => api.on("before_agent_start", () => ({ systemPrompt: "FIRST" })),
      (api) =>
        api.on("before_agent_start", (e) => {
          seen.push(e.systemPrompt);
          delete e.systemPromptOptions.forceSystemPrompt;
        }),
      (api) => api.on("before_agent_start", (e) => void seen.push(e.systemPrompt)),
    );
    const out = await runner.emitBeforeAgentStart("hi", undefined, {}, () => "RENDERED");
    expect(seen).toEqual(["FIRST", "RENDERED"]);
    expect(out.forceSystemPrompt).toBeUndefined();
    expect(out.systemPromptOptions).toEqual({});
  });

  it("10.8 an edited selectedTools list is reported; the rendered prompt follows the mutable options", async () => {
    const seen: string[] = [];
    const { runner } = await runnerWith(
      (api) =>
        api.on("before_agent_start", (e) => {
          e.systemPromptOptions.selectedTools = ["read"];
        }),
      (api) => api.on("before_agent_start", (e) => void seen.push(e.systemPrompt)),
    );
    const out = await runner.emitBeforeAgentStart("hi", undefined, { selectedTools: ["read", "bash"] }, (o) =>
      (o.selectedTools ?? []).join("+"),
    );
    expect(seen).toEqual(["read"]);
    expect(out.selectedTools).toEqual(["read"]);
    const untouched = await (await runnerWith()).runner.emitBeforeAgentStart(
      "hi",
      undefined,
      { selectedTools: ["a"] },
      () => "",
    );
    expect(untouched.selectedTools).toBeUndefined();
  });

  it("10.9 input handlers chain; handled stops; continue when nothing changed", async () => {
    const { runner } = await runnerWith(
      (api) => api.on("input", (e) => ({ action: "transform", text: e.text.toUpperCase() })),
      (api) => api.on("input", (e) => ({ action: "transform", text: `${e.text}!` })),
    );
    expect(await runner.emitInput("hi", undefined, "interactive")).toEqual({
      action: "transform",
      text: "HI!",
      images: undefined,
    });
    const none = await runnerWith((api) => api.on("input", () => undefined));
    expect(await none.runner.emitInput("hi", undefined, "interactive")).toEqual({ action: "continue" });
    const after: string[] = [];
    const handled = await runnerWith(
      (api) => api.on("input", () => ({ action: "handled" })),
      (api) => api.on("input", () => void after.push("ran")),
    );
    expect(await handled.runner.emitInput("hi", undefined, "rpc")).toEqual({ action: "handled" });
    expect(after).toEqual([]);
  });

  it("10.10 before_provider_request replaces the payload; before_provider_headers mutate in place", async () => {
    const { runner } = await runnerWith(
      (api) => api.on("before_provider_request", (e) => ({ ...(e.payload as object), a: 1 })),
      (api) => api.on("before_provider_request", () => undefined),
      (api) =>
        api.on("before_provider_headers", (e) => {
          e.headers["x-trace"] = "t";
        }),
    );
    expect(await runner.emitBeforeProviderRequest({ model: "m" })).toEqual({ model: "m", a: 1 });
    const onPayload = runner.createOnPayload();
    expect(await onPayload({ model: "m" }, "http://x")).toEqual({ model: "m", a: 1 });
    expect(await runner.emitBeforeProviderHeaders({ accept: "json" })).toEqual({
      accept: "json",
      "x-trace": "t",
    });
    const plain = (await runnerWith()).runner.createOnPayload();
    expect(await plain({ model: "m" }, "http://x")).toBeUndefined();
  });

  it("10.11 session-before events: the first result with cancel stops the chain", async () => {
    const ran: string[] = [];
    const { runner } = await runnerWith(
      (api) => api.on("session_before_compact", () => void ran.push("a")),
      (api) =>
        api.on("session_before_compact", () => {
          ran.push("b");
          return { cancel: true, reason: "busy" };
        }),
      (api) => api.on("session_before_compact", () => void ran.push("c")),
    );
    expect(await runner.emitSessionBefore("session_before_compact", { preparation: {} })).toEqual({
      cancel: true,
      reason: "busy",
    });
    expect(ran).toEqual(["a", "b"]);
  });
});
