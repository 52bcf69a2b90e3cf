/**
 * The request pipeline and the streaming relay:
 * (a) entries → payload: a session whose current branch holds 2,000 messages with tool calls (user prompts,
 *     some with images; assistant turns with thinking, text and tool calls; tool results, some with images; a
 *     switch from OpenAI GPT-5 to Claude halfway; a system-prompt update) is stored in Postgres, then each run
 *     does what a prompt does before the model call: `loadSessionContext` → `convertToLlm` → the request (system
 *     prompt from the current system message, as `buildRequest` in lib/agent-session/session-run.ts) → `streamAssistant`
 *     (`prepareRequest` = `transformMessages` + `toModelMessages`, then the AI SDK) until the JSON body reaches
 *     `fetch`, answered by a canned reply (no network). Target ≤ 10 ms for the whole path; each stage printed.
 * (b) streaming: the mock provider (a child process, the real Anthropic SSE wire format) answers with 20,000
 *     small text deltas, holding after the first one until the client has it (so the first token travels alone,
 *     as from a real provider). Direct: a raw fetch to its /v1/messages. Through Strata: the prompt route's `POST`
 *     handler called in-process (the code the server runs) as a signed-in test user (tests/helpers/auth.ts) on a
 *     fresh session of their project, its SSE body read as the UI reads it. The mock records when the first delta was handed to its socket (`RecordedRequest.timing`), so the relay
 *     overhead (mock → first text delta out of Strata's SSE body, minus the same for the raw client; target ≤ 5 ms
 *     added) is printed apart from the work before the model request (session, resources, entries). Tokens per
 *     second: the tokens after the first over the time from the first delta to the last, per stream (target ≥
 *     20,000/s); Strata's run event log merges consecutive deltas, so the joined text (all 20,000 tokens) is what is
 *     checked, not the number of events.
 * (c) followers (docs/runs.md): a second tab following the run on another request (`GET …/runs/:runId/events`,
 *     the shared tail of the run's log in Postgres, lib/runs/run-tail.ts) — how long after the starting stream
 *     each event reaches it (30 token deltas 60 ms apart, FOLLOW_RUNS runs; the 100 ms tail interval plus one
 *     read) — and 50 followers of one run: the reads of `run_events` per second (one shared tail: about one per
 *     tick, not one per follower). The in-process mock provider and signed-in test users (tests/helpers/auth.ts),
 *     through the route handlers as in tests/integration/runs. The integration tests check these behaviours as
 *     conditions (tests/integration/runs/run-log.test.ts, shared-tail.test.ts); the figures are measured here.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { createSseParser } from "@/components/chat/sse";
import type { AgentMessage } from "@/lib/agent/messages";
import { convertToLlm } from "@/lib/context/convert-to-llm";
import { DbScope } from "@/lib/db/client";
import { type Model, resolveModel } from "@/lib/llm/models";
import { prepareRequest } from "@/lib/llm/prepare-request";
import { type StreamContext, streamAssistant } from "@/lib/llm/stream";
import { toModelMessages } from "@/lib/llm/to-model-messages";
import { toolCallIdNormalizerFor } from "@/lib/llm/tool-call-ids";
import { transformMessages } from "@/lib/llm/transform-messages";
import type {
  AssistantMessage,
  Message,
  SystemMessage,
  ThinkingLevel,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "@/lib/llm/types";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { buildSystemPromptSections } from "@/lib/prompt/sections";
import { getCurrentSystemMessage, getSystemMessageText } from "@/lib/prompt/system-message";
import { runFollowMetrics } from "@/lib/runs/run-tail";
import { contextPathCache, loadSessionContext } from "@/lib/session/context-load";
import type { SessionEntry } from "@/lib/session/entries";
import { appendEntry, createSession, deriveColumns } from "@/lib/session/store";
import { createCodingTools } from "@/lib/tools";
import { toolParametersJsonSchema } from "@/lib/tools/types";
import { asUser, createTestUser, type TestUser } from "../../tests/helpers/auth";
import { mockAnthropicEnv, setEnv } from "../../tests/helpers/env";
import {
  newSession as newRunSession,
  prompt as promptRoute,
  runEvents,
  reader as sseReader,
  testUser,
  viewer,
} from "../../tests/integration/runs/helpers";
import { type MockProvider, mockProviderClient, startMockProvider } from "../../tests/mock-provider";
import type { RecordedRequest } from "../../tests/mock-provider/types";
import type { BenchContext, BenchSection } from "../context";
import { percentile } from "./responsive";

const PIPELINE_RUNS = 40;
const STREAM_RUNS = 12;
const FOLLOW_RUNS = 5;
const FOLLOWERS = 50;
const MESSAGES = 2000;
const TOKENS = 20_000;
const TARGET_MODEL = "anthropic/claude-sonnet-4-5";
const ENV = {
  ANTHROPIC_API_KEY: "bench",
  OPENAI_API_KEY: "bench",
  STRATA_DEFAULT_MODEL: TARGET_MODEL,
};

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "const value return export function import result config item await the a file test".split(" ");
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The 2,000-message branch as entries (ids, parents, derived columns), root first. */
function generateBranch(tools: SystemMessage["toolsAdded"], sections: Record<string, string>) {
  const rand = rng(7);
  const words = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
  const b64 = (n: number) => Array.from({ length: n }, () => B64[Math.floor(rand() * 64)]).join("");
  const id = (n: number) => n.toString(16).padStart(8, "0");
  const entries: SessionEntry[] = [];
  let ts = Date.UTC(2026, 0, 1);
  const push = (fields: Record<string, unknown>) => {
    const n = entries.length;
    ts += 1000;
    entries.push({
      id: id(n + 1),
      parentId: n === 0 ? null : id(n),
      timestamp: new Date(ts).toISOString(),
      ...fields,
    } as unknown as SessionEntry);
  };
  const message = (m: AgentMessage) => push({ type: "message", message: m });
  const usage = () => ({
    input: 2000,
    output: 300,
    cacheRead: 40_000,
    cacheWrite: 0,
    totalTokens: 42_300,
    cost: { input: 0.006, output: 0.0045, cacheRead: 0.012, cacheWrite: 0, total: 0.0225 },
  });

  let messages = 0;
  let openai = true;
  let call = 0;
  push({ type: "model_change", provider: "openai", modelId: "gpt-5" });
  push({ type: "thinking_level_change", thinkingLevel: "medium" });
  const system: SystemMessage = { role: "system", content: "", sections, toolsAdded: tools, timestamp: ts };
  message(system);
  messages++;
  while (messages < MESSAGES) {
    if (openai && messages >= MESSAGES / 2) {
      openai = false;
      push({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
      // the project's AGENTS.md changed in between: a section patch
      message({
        role: "system",
        content: "",
        sections: { project_context: `Project-specific instructions:\n\n${words(120)}` },
        timestamp: ts,
      });
      messages++;
    }
    const user: UserMessage = {
      role: "user",
      content: [{ type: "text", text: words(20 + Math.floor(rand() * 40)) }],
      timestamp: ts,
    };
    if (messages % 400 === 3)
      (user.content as UserMessage["content"] & unknown[]).push({
        type: "image",
        data: b64(32_000),
        mimeType: "image/png",
      });
    message(user);
    messages++;
    // 2–4 tool rounds, then a final answer
    const rounds = 2 + Math.floor(rand() * 3);
    for (let r = 0; r <= rounds && messages < MESSAGES; r++) {
      const final = r === rounds;
      const content: AssistantMessage["content"] = [];
      const thinking = words(30 + Math.floor(rand() * 60));
      if (openai) {
        const rsId = `rs_${b64(40).replace(/[+/]/g, "x")}`;
        content.push({
          type: "thinking",
          thinking,
          thinkingSignature: JSON.stringify({
            type: "reasoning",
            id: rsId,
            encrypted_content: b64(800),
            summary: [{ type: "summary_text", text: thinking }],
          }),
        });
      } else content.push({ type: "thinking", thinking, thinkingSignature: b64(344) });
      content.push({
        type: "text",
        text: words(final ? 80 : 15),
        ...(openai
          ? { textSignature: JSON.stringify({ v: 1, id: `msg_${b64(40).replace(/[+/]/g, "x")}` }) }
          : {}),
      });
      const calls: ToolCall[] = [];
      if (!final) {
        const n = rand() < 0.2 ? 2 : 1;
        for (let k = 0; k < n; k++) {
          call++;
          const name = ["read", "bash", "edit", "write"][Math.floor(rand() * 4)];
          calls.push({
            type: "toolCall",
            id: openai ? `call_${b64(24).replace(/[+/]/g, "x")}` : `toolu_01${b64(22).replace(/[+/]/g, "x")}`,
            name,
            arguments:
              name === "read"
                ? { path: `src/mod${call % 50}/file${call}.ts` }
                : name === "bash"
                  ? { command: `npm test -- ${words(3)}` }
                  : name === "edit"
                    ? { path: `src/f${call}.ts`, edits: [{ oldText: words(8), newText: words(9) }] }
                    : { path: `src/new${call}.ts`, content: words(60) },
          });
        }
      }
      content.push(...calls);
      const assistant: AssistantMessage = {
        role: "assistant",
        content,
        api: openai ? "openai-responses" : "anthropic-messages",
        provider: openai ? "openai" : "anthropic",
        model: openai ? "gpt-5" : "claude-sonnet-4-5",
        usage: usage(),
        stopReason: final ? "stop" : "toolUse",
        ...(openai ? { responseId: `resp_${b64(20).replace(/[+/]/g, "x")}` } : {}),
        thinkingLevel: "medium" as ThinkingLevel,
        timestamp: ts,
      };
      message(assistant);
      messages++;
      for (const c of calls) {
        if (messages >= MESSAGES) break;
        const result: ToolResultMessage = {
          role: "toolResult",
          toolCallId: c.id,
          toolName: c.name,
          content: [{ type: "text", text: words(60 + Math.floor(rand() * 240)) }],
          isError: rand() < 0.05,
          timestamp: ts,
        };
        if (c.name === "read" && call % 97 === 0)
          result.content.push({ type: "image", data: b64(24_000), mimeType: "image/png" });
        message(result);
        messages++;
      }
    }
  }
  let parent: ReturnType<typeof deriveColumns> | null = null;
  return entries.map((entry) => {
    parent = deriveColumns(entry, parent);
    return { entry, derived: parent };
  });
}

/** Store the branch in one statement and point the session's leaf at its last entry. */
async function seedBranch(scope: DbScope, projectId: string, rows: ReturnType<typeof generateBranch>) {
  const s = await createSession(scope, { projectId, cwd: "/bench" });
  const payload = rows.map(({ entry, derived }) => ({
    id: entry.id,
    parent_id: entry.parentId,
    type: entry.type,
    entry: JSON.stringify(entry),
    compaction_id: derived.compactionId,
    thinking_level: derived.thinkingLevel,
    model_provider: derived.modelProvider,
    model_id: derived.modelId,
  }));
  await scope.query(
    `INSERT INTO session_entries
       (session_id, id, parent_id, type, entry, compaction_id, thinking_level, model_provider, model_id)
     SELECT $1, r.id, r.parent_id, r.type, r.entry::json, r.compaction_id, r.thinking_level, r.model_provider, r.model_id
       FROM json_to_recordset($2::json) AS r(id text, parent_id text, type text, entry text, compaction_id text,
            thinking_level text, model_provider text, model_id text)
      ORDER BY r.id`,
    [s.id, JSON.stringify(payload)],
  );
  await scope.query("UPDATE sessions SET leaf_id = $2 WHERE id = $1", [s.id, rows[rows.length - 1].entry.id]);
  await scope.query("ANALYZE session_entries");
  return s.id;
}

/** `buildRequest` of lib/agent-session/session-run.ts (the loop's request from the converted messages). */
function buildRequest(messages: Message[]): StreamContext {
  const current = getCurrentSystemMessage(messages);
  return {
    systemPrompt: current ? getSystemMessageText(current) : "",
    messages: messages.filter((m) => m.role !== "system"),
    tools: current?.toolsAdded ?? [],
  };
}

const CANNED = [
  {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [],
      model: "m",
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
  { type: "message_stop" },
]
  .map((e) => `data: ${JSON.stringify(e)}\n\n`)
  .join("");

interface PipelineSample {
  load: number;
  convert: number;
  build: number;
  /** `streamAssistant` call → the body handed to `fetch` (prepareRequest + AI SDK). */
  request: number;
  total: number;
  transform: number;
  prepare: number;
  toModel: number;
  bodyBytes: number;
  messages: number;
}

async function pipelineOnce(
  scope: DbScope,
  sessionId: string,
  model: Model,
  cold = false,
): Promise<PipelineSample> {
  // Warm: what the next prompt of a session finds — this instance's cached path plus one new entry since.
  // Cold: a fresh instance, the whole branch read from Postgres.
  if (cold) contextPathCache.clear();
  else
    await appendEntry(scope, sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "and then?" }], timestamp: Date.now() },
    });
  let sentAt = 0;
  let bodyBytes = 0;
  const fetchHook = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    sentAt = performance.now();
    bodyBytes = typeof init?.body === "string" ? init.body.length : 0;
    return new Response(CANNED, { status: 200, headers: { "content-type": "text/event-stream" } });
  }) as typeof fetch;
  const t0 = performance.now();
  const loaded = await loadSessionContext(scope, sessionId);
  const t1 = performance.now();
  const llm = convertToLlm(loaded.messages);
  const t2 = performance.now();
  const request = buildRequest(llm);
  const t3 = performance.now();
  let error: string | undefined;
  for await (const event of streamAssistant(model, request, {
    env: ENV,
    fetch: fetchHook,
    thinkingLevel: loaded.thinkingLevel,
  }))
    if (event.type === "error") error = event.error.errorMessage;
  if (error || sentAt === 0) throw new Error(`pipeline: no payload (${error})`);
  // The stages inside `streamAssistant`, timed apart (not part of the total).
  const s0 = performance.now();
  const transformed = transformMessages(request.messages, model, toolCallIdNormalizerFor(model));
  const s1 = performance.now();
  prepareRequest(model, request, { thinking: loaded.thinkingLevel !== "off" });
  const s2 = performance.now();
  toModelMessages(transformed, model);
  const s3 = performance.now();
  return {
    load: t1 - t0,
    convert: t2 - t1,
    build: t3 - t2,
    request: sentAt - t3,
    total: sentAt - t0,
    transform: s1 - s0,
    prepare: s2 - s1,
    toModel: s3 - s2,
    bodyBytes,
    messages: loaded.messages.length,
  };
}

export async function pipeline(ctx: BenchContext, scope: DbScope, projectId: string): Promise<void> {
  const vfs = await ctx.createVfs();
  try {
    const tools = createCodingTools({ fs: vfs.fs, cwd: "/bench", projectRoot: "/bench" });
    const declarations = tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: toolParametersJsonSchema(t),
    }));
    const sections = buildSystemPromptSections({
      cwd: "/bench",
      selectedTools: tools.map((t) => t.name),
      toolSnippets: Object.fromEntries(
        tools.filter((t) => t.promptSnippet).map((t) => [t.name, t.promptSnippet!]),
      ),
      toolGuidelines: Object.fromEntries(tools.map((t) => [t.name, t.promptGuidelines ?? []])),
      contextFiles: [{ path: "/bench/AGENTS.md", content: "Use tabs. Run the tests before committing.\n" }],
      skills: [],
    }) as unknown as Record<string, string>;
    const rows = generateBranch(declarations, sections);
    const sessionId = await seedBranch(scope, projectId, rows);
    const model = resolveModel(TARGET_MODEL, ENV);
    if (!model) throw new Error(`no model ${TARGET_MODEL}`);
    for (let i = 0; i < 10; i++) await pipelineOnce(scope, sessionId, model);
    const samples: PipelineSample[] = [];
    const coldSamples: PipelineSample[] = [];
    for (let i = 0; i < PIPELINE_RUNS; i++) {
      samples.push(await pipelineOnce(scope, sessionId, model));
      coldSamples.push(await pipelineOnce(scope, sessionId, model, true));
    }
    const first = samples[0];
    const stored = rows.reduce((n, r) => n + JSON.stringify(r.entry).length, 0);
    console.log(
      `branch: ${first.messages} messages in ${rows.length} entries, ${(stored / 1e6).toFixed(2)} MB stored JSON → ${(first.bodyBytes / 1e6).toFixed(2)} MB payload`,
    );
    const pick = (k: keyof PipelineSample) => samples.map((s) => s[k]);
    ctx.report("entries → payload, total (warm: cached path + 1 new entry)", pick("total"), 10);
    ctx.report("  load (loadSessionContext: Postgres + projection)", pick("load"));
    ctx.report("  convertToLlm", pick("convert"));
    ctx.report("  request build (current system message)", pick("build"));
    ctx.report("  streamAssistant → body at fetch (prepareRequest + AI SDK)", pick("request"));
    ctx.report("    of which prepareRequest (timed apart)", pick("prepare"));
    ctx.report("      transformMessages (timed apart)", pick("transform"));
    ctx.report("      toModelMessages (timed apart)", pick("toModel"));
    const coldPick = (k: keyof PipelineSample) => coldSamples.map((s) => s[k]);
    ctx.report("entries → payload, total (cold: whole branch from Postgres)", coldPick("total"));
    ctx.report("  load (loadSessionContext: Postgres + projection)", coldPick("load"));
  } finally {
    await vfs.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Streaming

const wallNow = () => performance.timeOrigin + performance.now();

async function startMockProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/mock-provider/cli.ts", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const [url] = (await once(lines, "line")) as [string];
  lines.close();
  return { url: url.trim(), child };
}

interface StreamSample {
  /** Request sent → first text delta received. */
  ttft: number;
  /** Mock wrote the first delta → the client has it (ms, cross-process clock). */
  relay: number;
  /** Request sent → the mock received the provider request. */
  beforeModel: number;
  /** Tokens per second, first delta to last (the mock sends one token per delta). */
  rate: number;
  /** Delta events received (Strata merges consecutive ones). */
  deltas: number;
  /** The streamed text, joined. */
  text: string;
}

/** The delta text of a text-delta event of `eventName` whose JSON `data` has it at `path`. */
function textDeltaOf(
  eventName: string,
  pick: (json: Record<string, unknown>) => unknown,
): (event: string, data: string) => string | undefined {
  return (event, data) => {
    if (event !== eventName || !data.includes('"text_delta"')) return undefined;
    const delta = pick(JSON.parse(data) as Record<string, unknown>);
    return typeof delta === "string" ? delta : undefined;
  };
}

/**
 * Read an SSE body to its end, noting when the text deltas arrive (`deltaText` gives an event's delta text, or
 * `undefined` for any other event): the first (then `onFirst` runs), the second and the last, how many delta events
 * there were and their text joined. Strata's run event log merges consecutive deltas, so the text, not the number
 * of events, says whether every token arrived.
 */
async function readDeltas(
  body: ReadableStream<Uint8Array>,
  deltaText: (event: string, data: string) => string | undefined,
  onFirst: () => void,
): Promise<{ first: number; second: number; last: number; count: number; text: string }> {
  let first = 0;
  let second = 0;
  let last = 0;
  let count = 0;
  const parts: string[] = [];
  const parser = createSseParser(({ event, data }) => {
    const delta = deltaText(event, data);
    if (delta === undefined) return;
    parts.push(delta);
    last = wallNow();
    if (count === 0) {
      first = last;
      onFirst();
    } else if (count === 1) second = last;
    count++;
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  parser.end();
  return { first, second, last, count, text: parts.join("") };
}

/**
 * The mock holds the stream after the first delta until the client has it: the first token travels alone (as from
 * a real provider) instead of in one burst with the 19,999 others, which the mock writes in one synchronous loop.
 */
const GATE = "first-token";

const tokens = () => Array.from({ length: TOKENS }, (_, i) => (i === 0 ? "tok" : ` t${i % 1000}`));

async function lastRequest(mock: ReturnType<typeof mockProviderClient>): Promise<RecordedRequest> {
  const requests = await mock.requests();
  const last = requests[requests.length - 1];
  if (!last?.timing?.firstDeltaAt) throw new Error("mock: no timing recorded");
  return last;
}

async function direct(url: string, mock: ReturnType<typeof mockProviderClient>): Promise<StreamSample> {
  await mock.reset();
  await mock.script({ text: tokens(), holdUntilReleased: GATE });
  const start = wallNow();
  const res = await fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "bench", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      stream: true,
      messages: [{ role: "user", content: "go" }],
    }),
  });
  const got = await readDeltas(
    res.body!,
    textDeltaOf("content_block_delta", (j) => (j.delta as { text?: unknown } | undefined)?.text),
    () => void mock.release(GATE),
  );
  const timing = (await lastRequest(mock)).timing!;
  return {
    ttft: got.first - start,
    relay: got.first - timing.firstDeltaAt!,
    beforeModel: timing.receivedAt - start,
    // The first token is alone (held at the gate until it arrived); the rest follow it.
    rate: (TOKENS - 1) / ((got.last - got.first) / 1000),
    deltas: got.count,
    text: got.text,
  };
}

async function throughStrata(
  scope: DbScope,
  projectId: string,
  mock: ReturnType<typeof mockProviderClient>,
  user: TestUser,
  sessionId?: string,
): Promise<StreamSample> {
  const session = sessionId
    ? { id: sessionId }
    : await createSession(scope, { projectId, cwd: "/bench", userId: user.id });
  await mock.reset();
  await mock.script({ text: tokens(), holdUntilReleased: GATE });
  const start = wallNow();
  // As the signed-in user's browser (cookie and same-origin Origin), as every route is called.
  const res = await postPrompt(
    asUser(user, `http://strata.local/api/sessions/${session.id}/prompt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "go" }),
    }),
    { params: Promise.resolve({ id: session.id }) },
  );
  if (res.status !== 200) throw new Error(`prompt route answered ${res.status}: ${await res.text()}`);
  let error: string | undefined;
  const got = await readDeltas(
    res.body!,
    (event, data) => {
      if (event === "error") error = data;
      return textDeltaOf(
        "message_update",
        (j) => (j.assistantMessageEvent as { delta?: unknown } | undefined)?.delta,
      )(event, data);
    },
    () => void mock.release(GATE),
  );
  if (error) throw new Error(`prompt run failed: ${error}`);
  const timing = (await lastRequest(mock)).timing!;
  return {
    ttft: got.first - start,
    relay: got.first - timing.firstDeltaAt!,
    beforeModel: timing.receivedAt - start,
    // The first token is alone (held at the gate until it arrived); the rest follow it.
    rate: (TOKENS - 1) / ((got.last - got.first) / 1000),
    deltas: got.count,
    text: got.text,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function reportRate(name: string, rates: number[], target?: number): void {
  const s = [...rates].sort((a, b) => a - b);
  const m = median(rates);
  const t =
    target === undefined
      ? ""
      : ` target ≥ ${target.toLocaleString("en")}/s ${m >= target ? "met" : "MISSED"}`;
  const f = (n: number) => Math.round(n).toLocaleString("en");
  console.log(`${name}: ${f(m)} tokens/s (${s.length} runs, ${f(s[0])}..${f(s[s.length - 1])})${t}`);
}

export async function streaming(ctx: BenchContext, scope: DbScope): Promise<void> {
  const { url, child } = await startMockProcess();
  const saved = Object.fromEntries(
    ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "STRATA_DEFAULT_MODEL"].map((k) => [k, process.env[k]]),
  );
  process.env.ANTHROPIC_BASE_URL = `${url}/v1`;
  process.env.ANTHROPIC_API_KEY = "bench";
  process.env.STRATA_DEFAULT_MODEL = TARGET_MODEL;
  const mock = mockProviderClient(url);
  try {
    // A signed-in user's project: the prompt route answers nobody else.
    const user = await createTestUser("Bench");
    const { id: projectId } = await insertProject(scope, {
      workspaceId: user.workspaceId,
      name: "bench-stream",
      source: null,
    });
    // "Next prompt": one session prompted again and again (this instance has seen it: the usual case).
    const ongoing = (await createSession(scope, { projectId, cwd: "/bench", userId: user.id })).id;
    for (let i = 0; i < 2; i++) {
      await direct(url, mock);
      await throughStrata(scope, projectId, mock, user);
      await throughStrata(scope, projectId, mock, user, ongoing);
    }
    const d: StreamSample[] = [];
    const s: StreamSample[] = [];
    const n: StreamSample[] = [];
    for (let i = 0; i < STREAM_RUNS; i++) {
      d.push(await direct(url, mock));
      s.push(await throughStrata(scope, projectId, mock, user));
      n.push(await throughStrata(scope, projectId, mock, user, ongoing));
    }
    const expected = tokens().join("");
    for (const x of [...d, ...s, ...n])
      if (x.text !== expected)
        throw new Error(
          `expected the ${TOKENS} tokens' text, got ${x.text.length} of ${expected.length} characters`,
        );
    const added = median(s.map((x) => x.relay)) - median(d.map((x) => x.relay));
    ctx.report(
      "time to first token, mock direct (raw fetch)",
      d.map((x) => x.ttft),
    );
    ctx.report(
      "time to first token through Strata, first prompt of a new session (POST → first SSE text delta)",
      s.map((x) => x.ttft),
    );
    ctx.report(
      "  of which before the model request (session, resources, settings and message entries)",
      s.map((x) => x.beforeModel),
    );
    ctx.report(
      "time to first token through Strata, next prompt of a session",
      n.map((x) => x.ttft),
    );
    ctx.report(
      "  of which before the model request",
      n.map((x) => x.beforeModel),
    );
    const overall = median(n.map((x) => x.ttft)) - median(d.map((x) => x.ttft));
    console.log(
      `added to the first token, whole request (next prompt − direct, medians): ${overall.toFixed(1)} ms target ≤ 5 ms ${overall <= 5 ? "met" : "MISSED"}`,
    );
    ctx.report(
      "  first delta written by the mock → received, direct",
      d.map((x) => x.relay),
    );
    ctx.report(
      "  first delta written by the mock → relayed by Strata",
      s.map((x) => x.relay),
    );
    console.log(
      `added to the first token by the relay (first delta written by the mock → relayed, Strata − direct, medians): ${added.toFixed(1)} ms target ≤ 5 ms ${added <= 5 ? "met" : "MISSED"}`,
    );
    reportRate(
      `tokens per second, mock direct (${TOKENS.toLocaleString("en")} tokens, one per delta)`,
      d.map((x) => x.rate),
    );
    reportRate(
      "tokens per second relayed by Strata",
      s.map((x) => x.rate),
      20_000,
    );
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    child.kill("SIGTERM");
    await once(child, "exit");
  }
}

// ---------------------------------------------------------------------------------------------------------
// Followers

/**
 * One run streaming 30 token deltas 60 ms apart, followed on another request from its first delta: per event after
 * the gate, how long after the starting stream got it the follower got it (both read in this process, stamped by a
 * 2 ms interval), ms.
 */
async function followerLags(scope: DbScope, mock: MockProvider): Promise<number[]> {
  mock.reset();
  const session = await newRunSession(scope);
  mock.enqueue({ text: Array.from({ length: 30 }, (_, i) => `t${i} `), delayMs: 60, holdUntilReleased: "g" });
  const first = sseReader(await promptRoute(session.id, { text: "stream slowly" }));
  await first.waitFor((e) => e.event === "message_update");
  const runId = first.events[0].data.runId as string;
  const second = sseReader(await runEvents(session.id, runId));
  await second.waitFor((e) => e.event === "message_update");
  const at = { post: new Map<number, number>(), follow: new Map<number, number>() };
  const stamp = (which: Map<number, number>, events: { id?: number }[]) => {
    for (const e of events) if (e.id !== undefined && !which.has(e.id)) which.set(e.id, performance.now());
  };
  const timer = setInterval(() => {
    stamp(at.post, first.events);
    stamp(at.follow, second.events);
  }, 2);
  const live = first.events.length;
  mock.release("g");
  await Promise.all([first.done, second.done]);
  clearInterval(timer);
  stamp(at.post, first.events);
  stamp(at.follow, second.events);
  if (JSON.stringify(second.events) !== JSON.stringify(first.events))
    throw new Error("the follower got other events than the starting stream");
  return [...at.post.keys()]
    .filter((id) => id > live)
    .map((id) => (at.follow.get(id) as number) - (at.post.get(id) as number));
}

/** {@link FOLLOWERS} followers of one run (three people, within each one's 20 streams): the follow path's reads. */
async function sharedTail(scope: DbScope, mock: MockProvider) {
  mock.reset();
  const session = await newRunSession(scope);
  mock.enqueue({ text: Array.from({ length: 20 }, (_, i) => `c${i} `), delayMs: 60, holdUntilReleased: "g" });
  const first = sseReader(await promptRoute(session.id, { text: "stream to many" }));
  await first.waitFor((e) => e.event === "message_update");
  const runId = first.events[0].data.runId as string;
  const people = [await testUser(), await viewer(scope), await viewer(scope)];
  const before = { ...runFollowMetrics };
  const started = performance.now();
  const responses = await Promise.all(
    Array.from({ length: FOLLOWERS }, (_, i) =>
      runEvents(session.id, runId, { query: "after=0", as: people[i % 3] }),
    ),
  );
  const followers = responses.map(sseReader);
  await Promise.all(followers.map((f) => f.waitFor((e) => e.event === "message_update")));
  mock.release("g");
  await Promise.all([first.done, ...followers.map((f) => f.done)]);
  const ms = performance.now() - started;
  return {
    ms,
    tailReads: runFollowMetrics.tailReads - before.tailReads,
    replayReads: runFollowMetrics.replayReads - before.replayReads,
    watchTicks: runFollowMetrics.watchTicks - before.watchTicks,
  };
}

/** (c): the follower's lag and the shared tail's reads, printed. */
async function followers(): Promise<void> {
  const mock = await startMockProvider();
  const restoreEnv = setEnv(mockAnthropicEnv(mock.url));
  const scope = new DbScope();
  try {
    await followerLags(scope, mock); // warm-up: the routes and the tail's first statements
    const lags: number[] = [];
    for (let i = 0; i < FOLLOW_RUNS; i++) lags.push(...(await followerLags(scope, mock)));
    const f = (ms: number) => ms.toFixed(0);
    console.log(
      `follower on another request, behind the starting stream (${lags.length} events of ${FOLLOW_RUNS} runs): ` +
        `p50 ${f(percentile(lags, 50))} ms, p95 ${f(percentile(lags, 95))} ms, max ${f(Math.max(...lags))} ms`,
    );
    const shared = await sharedTail(scope, mock);
    console.log(
      `${FOLLOWERS} followers of one run over ${f(shared.ms)} ms: ${shared.tailReads} tail reads of run_events ` +
        `(${((shared.tailReads * 1000) / shared.ms).toFixed(1)}/s), ${shared.replayReads} replay reads, ` +
        `${shared.watchTicks} watch ticks`,
    );
  } finally {
    await scope.release();
    restoreEnv();
    await mock.close();
  }
}

export const pipelineSection: BenchSection = {
  name: "pipeline",
  async run(ctx) {
    const scope = new DbScope();
    try {
      const actor = await getLocalActor(scope);
      const project = await insertProject(scope, {
        workspaceId: actor.workspaceId,
        name: "bench-pipeline",
        source: null,
      });
      await pipeline(ctx, scope, project.id);
      await streaming(ctx, scope);
      await followers();
    } finally {
      await scope.release();
    }
  },
};
