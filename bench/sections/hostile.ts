/**
 * Hostile requests (issue 9): each attack of the adversarial pass is sent to the built app (`next start`, a
 * separate process on the bench database, the mock provider as its model) while a probe sends
 * `GET /api/config` back to back; the line printed per attack is the app's answer (status and error code), the
 * worst probe latency while the attack was in flight (target ≤ 200 ms) and whether the server is still up.
 * Needs a build (`npx next build`); without one the section says so and measures nothing.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { largeSessionFile, SESSION_HEADER, sessionFile } from "../../tests/helpers/session-files";
import { startMockProvider } from "../../tests/mock-provider";
import type { BenchSection } from "../context";
import {
  type Answer,
  type AppServer,
  hasBuild,
  probeWhile,
  send,
  startAppServer,
} from "../hostile/app-server";
import {
  deepPath,
  gzipBomb,
  manyFilesZip,
  overlappingZip,
  POISONED_SESSIONS,
  zeroFilesZip,
} from "../hostile/payloads";

const TARGET_MS = 200;

/** A multipart body for `POST /api/projects` (file field `file`). */
async function multipart(fileName: string, bytes: Uint8Array): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  form.set("file", new File([Buffer.from(bytes)], fileName));
  const request = new Request("http://x/", { method: "POST", body: form });
  return {
    body: new Uint8Array(await request.arrayBuffer()),
    type: request.headers.get("content-type") ?? "",
  };
}

/** `status code: message` of an answer, shortened. */
function summarise(answer: Answer | Error): string {
  if (answer instanceof Error) return `no answer (${answer.message})`;
  let detail = answer.text.slice(0, 140).replace(/\s+/g, " ");
  try {
    const parsed = JSON.parse(answer.text) as { error?: { code?: string; message?: string } };
    if (parsed.error) detail = `${parsed.error.code}: ${parsed.error.message?.slice(0, 120)}`;
  } catch {
    /* not JSON: the text itself */
  }
  // Same-shaped answers group together: ids and counters are not part of the shape.
  const shape = detail
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .replace(/\b[0-9a-f]{40}\b/g, "<oid>")
    .replace(/follow-up \d+/g, "follow-up N")
    .slice(0, 100);
  return `${answer.status} ${shape}`;
}

/** Read a prompt's SSE answer to the end and return the tool/bash outcome lines it carried. */
function lastEvents(text: string): string {
  const errors = text.match(/"(?:message|error|output)":"[^"]{0,160}/g) ?? [];
  return errors.slice(-2).join(" | ");
}

async function redirector(to: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(302, { location: to }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/repo.git`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Open a WebSocket to the database proxy as a page on another origin would. */
function crossOriginWebSocket(): Promise<Answer> {
  const proxy = (process.env.STRATA_DB_PROXY ?? "").split("/")[0];
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://${proxy}/v1?address=127.0.0.1:5432`, {
      headers: { Origin: "http://evil.example" },
    });
    socket.on("unexpected-response", (_req, res) => {
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: "",
        ms: performance.now() - started,
      });
      socket.terminate();
    });
    socket.on("open", () => {
      resolve({ status: 101, headers: {}, text: "OPENED: relay reachable", ms: performance.now() - started });
      socket.close();
    });
    socket.on("error", (error) =>
      resolve({ status: 0, headers: {}, text: error.message, ms: performance.now() - started }),
    );
  });
}

export const hostileSection: BenchSection = {
  name: "hostile",
  async run() {
    if (!hasBuild()) {
      console.log("no build in .next: run `npx next build` first (hostile requests need the real server)");
      return;
    }
    const mock = await startMockProvider();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ANTHROPIC_API_KEY: "bench-key",
      ANTHROPIC_BASE_URL: `${mock.url}/v1`,
      STRATA_DEFAULT_MODEL: "anthropic/claude-sonnet-4-5",
    };
    let app: AppServer = await startAppServer(env);
    const same = () => ({ Origin: app.url, "Sec-Fetch-Site": "same-origin", Cookie: app.cookie });
    const json = (body: unknown) => ({
      headers: { ...same(), "content-type": "application/json" },
      body: Buffer.from(JSON.stringify(body)),
    });
    const upload = (archive: { body: Uint8Array; type: string }) =>
      send(`${app.url}/api/projects`, {
        method: "POST",
        headers: { ...same(), "content-type": archive.type },
        body: archive.body,
      });
    // Every payload is built before the probe starts: the probe shares this process's event loop.
    const archives = {
      seed: await multipart("seed.zip", zeroFilesZip(1, 10)),
      overlap: await multipart("overlap.zip", overlappingZip()),
      zeros: await multipart("zeros.zip", zeroFilesZip()),
      bomb: await multipart("bomb.tar.gz", gzipBomb()),
      many: await multipart("many.zip", manyFilesZip()),
      empty: await multipart("empty.zip", manyFilesZip(9800, "")),
    };
    const deepPut = json({ path: deepPath(), content: "deep\n" });
    const hugePrompt = json({ text: "x".repeat(20 * 1024 * 1024) });
    // A file PUT whose content is 4.9 million nested arrays (9.8 MB).
    const nestedPut = {
      headers: { ...same(), "content-type": "application/json" },
      body: Buffer.from(`{"path":"n.json","content":${"[".repeat(4_900_000)}${"]".repeat(4_900_000)}}`),
    };
    // A staged session upload (4 MiB parts) whose third line nests 8 million levels (16 MB).
    const deepLineSession = Buffer.from(
      `${SESSION_HEADER}\n${JSON.stringify({ type: "session_info", id: "a", parentId: null, timestamp: "t", name: "x" })}\n${"[".repeat(8_000_000)}${"]".repeat(8_000_000)}\n`,
    );
    const deepCwdSession = Buffer.from(
      `${JSON.stringify({ type: "session", version: 3, id: "0198a6f0-0000-7000-8000-00000000c0d0", timestamp: "2026-01-01T00:00:00.000Z", cwd: `/seed/${Array(2000).fill("c").join("/")}` })}\n`,
    );
    const seed = await upload(archives.seed);
    const projectId = (JSON.parse(seed.text) as { project: { id: string } }).project.id;
    const newSession = async () =>
      (
        JSON.parse(
          (await send(`${app.url}/api/projects/${projectId}/sessions`, { method: "POST", ...json({}) })).text,
        ) as { session: { id: string } }
      ).session.id;
    const sessionId = await newSession();
    // Warm every route the attacks reach with a benign request first: `next start` loads a route's bundle on
    // its first request (a few hundred ms on the event loop), which is no attack's doing.
    const warm = [
      send(`${app.url}/api/projects/${projectId}/file`, {
        method: "PUT",
        ...json({ path: "warm/a.txt", content: "warm\n" }),
      }),
      send(`${app.url}/api/projects/${projectId}/sessions/import?name=warm`, {
        method: "POST",
        headers: { ...same(), "content-type": "application/x-ndjson" },
        body: Buffer.from(sessionFile()),
      }),
      send(`${app.url}/api/sessions/${sessionId}/prompt`, {
        method: "POST",
        ...json({ text: "!echo warm" }),
      }),
    ];
    for (const answer of await Promise.all(warm))
      if (answer.status >= 300)
        throw new Error(`warm-up failed: ${answer.status} ${answer.text.slice(0, 200)}`);
    const redirect = await redirector(`http://127.0.0.1:${new URL(mock.url).port}/repo.git`);
    const session = largeSessionFile(Math.round(15.7 * 1024 * 1024));
    const sessionBody = Buffer.from(session.text);
    const attacks: [string, () => Promise<Answer | Answer[]>][] = [
      ["cross-origin WebSocket to the database proxy", crossOriginWebSocket],
      [
        "cross-origin text/plain POST of a !command",
        () =>
          send(`${app.url}/api/sessions/${sessionId}/prompt`, {
            method: "POST",
            headers: {
              Origin: "http://evil.example",
              "Sec-Fetch-Site": "cross-site",
              "content-type": "text/plain",
            },
            body: JSON.stringify({ text: "!echo pwned > pwned.txt" }),
          }),
      ],
      ["foreign Host (DNS rebinding)", () => send(`${app.url}/`, { headers: { Host: "attacker.example" } })],
      [
        "git import of a loopback address",
        () =>
          send(`${app.url}/api/projects`, {
            method: "POST",
            ...json({ gitUrl: `http://127.0.0.1:${new URL(mock.url).port}/x.git` }),
          }),
      ],
      [
        "git import redirected to loopback",
        () => send(`${app.url}/api/projects`, { method: "POST", ...json({ gitUrl: redirect.url }) }),
      ],
      ["overlapping zip (11 KB)", () => upload(archives.overlap)],
      ["zip of ten 9.9 MB zero files", () => upload(archives.zeros)],
      ["gzip bomb (1 GiB in ≈1 MB)", () => upload(archives.bomb)],
      ["zip of 19,999 files", () => upload(archives.many)],
      [
        "one !command writing 4 × 32 MB",
        async () => {
          const answer = await send(`${app.url}/api/sessions/${sessionId}/prompt`, {
            method: "POST",
            ...json({ text: "!for i in 1 2 3 4; do printf '%33554432s' x > big$i.txt; done; echo done" }),
          });
          return { ...answer, text: lastEvents(answer.text) || answer.text };
        },
      ],
      [
        "PUT of a 1,600-level path",
        () =>
          send(`${app.url}/api/projects/${projectId}/file`, {
            method: "PUT",
            ...deepPut,
          }),
      ],
      [
        `session import of ${(session.bytes / 1024 / 1024).toFixed(1)} MB in one body`,
        () =>
          send(`${app.url}/api/projects/${projectId}/sessions/import?name=big`, {
            method: "POST",
            headers: { ...same(), "content-type": "application/x-ndjson" },
            body: sessionBody,
          }),
      ],
      [
        "poisoned session entries (5 files)",
        () =>
          Promise.all(
            Object.values(POISONED_SESSIONS).map((text) =>
              send(`${app.url}/api/projects/${projectId}/sessions/import?name=poison`, {
                method: "POST",
                headers: { ...same(), "content-type": "application/x-ndjson" },
                body: text,
              }),
            ),
          ),
      ],
      [
        "20 MB JSON body",
        () =>
          send(`${app.url}/api/sessions/${sessionId}/prompt`, {
            method: "POST",
            ...hugePrompt,
          }),
      ],
      ["zip of 9,800 empty files in 100 folders", () => upload(archives.empty)],
      [
        "file PUT of 4.9 million nested arrays (9.8 MB)",
        () => send(`${app.url}/api/projects/${projectId}/file`, { method: "PUT", ...nestedPut }),
      ],
      [
        "staged session upload whose third line nests 8 million levels (16 MB in 4 parts), committed",
        async () => {
          const uploads = `${app.url}/api/projects/${projectId}/sessions/import/uploads`;
          const created = await send(uploads, { method: "POST", ...json({ name: "deep.jsonl" }) });
          const uploadId = (JSON.parse(created.text) as { upload: { id: string } }).upload.id;
          const answers = [created];
          const partBytes = 4 * 1024 * 1024;
          let parts = 0;
          for (let offset = 0; offset < deepLineSession.length; offset += partBytes, parts++)
            answers.push(
              await send(`${uploads}/${uploadId}/parts/${parts}`, {
                method: "PUT",
                headers: { ...same(), "content-type": "application/octet-stream" },
                body: deepLineSession.subarray(offset, offset + partBytes),
              }),
            );
          answers.push(
            await send(`${uploads}/${uploadId}`, {
              method: "POST",
              ...json({ parts, bytes: deepLineSession.length }),
            }),
          );
          return answers;
        },
      ],
      [
        "session import whose header cwd is 2,000 levels deep",
        () =>
          send(`${app.url}/api/projects/${projectId}/sessions/import?name=deep`, {
            method: "POST",
            headers: { ...same(), "content-type": "application/x-ndjson" },
            body: deepCwdSession,
          }),
      ],
      [
        "one !command: 6,000 redirected writes in a loop",
        async () => {
          const answer = await send(`${app.url}/api/sessions/${sessionId}/prompt`, {
            method: "POST",
            ...json({ text: "!for i in $(seq 1 6000); do echo $i > f_x; done; echo done" }),
          });
          return { ...answer, text: lastEvents(answer.text) || answer.text };
        },
      ],
      [
        "100 concurrent follow-ups during a run",
        async () => {
          const busy = await newSession();
          mock.enqueue(
            { toolCalls: [{ name: "bash", input: { command: "sleep 3" } }] },
            { text: "first done" },
            ...Array.from({ length: 100 }, (_, i) => ({ text: `follow-up ${i} done` })),
          );
          const run = send(`${app.url}/api/sessions/${busy}/prompt`, {
            method: "POST",
            ...json({ text: "run a slow tool" }),
          });
          await new Promise((resolve) => setTimeout(resolve, 500));
          const answers = await Promise.all(
            Array.from({ length: 100 }, (_, i) =>
              send(`${app.url}/api/sessions/${busy}/prompt`, {
                method: "POST",
                ...json({ text: `follow-up ${i}`, streamingBehavior: "followUp" }),
              }),
            ),
          );
          await run;
          return answers;
        },
      ],
    ];
    try {
      for (const [name, attack] of attacks) {
        const probe = await probeWhile(app.url, attack, { Cookie: app.cookie });
        const answers = probe.result instanceof Error ? [probe.result] : [probe.result].flat();
        const statuses = new Map<string, number>();
        for (const a of answers) {
          const key = summarise(a);
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
        const what = [...statuses].map(([k, n]) => (n > 1 ? `${n}× ${k}` : k)).join("; ");
        const up = await app.alive();
        console.log(
          `${name}: ${what} — GET /api/config worst ${probe.worstMs.toFixed(0)} ms over ${probe.probes} probes` +
            `${probe.failedProbes ? ` (${probe.failedProbes} failed)` : ""} target ≤ ${TARGET_MS} ms ${
              probe.worstMs <= TARGET_MS && !probe.failedProbes ? "met" : "MISSED"
            }; server ${up ? "up" : "DOWN (restarted)"}`,
        );
        if (!up) {
          await app.close();
          app = await startAppServer(env);
        }
      }
    } finally {
      await redirect.close();
      await app.close();
      await mock.close();
    }
  },
};
