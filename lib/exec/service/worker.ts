/**
 * One worker thread of the execution service's pool: loads every handler of the registry, then runs the commands
 * the main thread sends it, one at a time, and answers each with `done`. The main thread enforces the wall-clock,
 * CPU and memory limits by terminating the thread; a handler enforces the output cap itself. Node-only.
 */
import { type MessagePort, parentPort } from "node:worker_threads";
import ws from "ws";
import { setNodeWebSocket } from "@/lib/db/client";
import type { ExecHandler } from "./handler";
import { HandlerError } from "./handler";
import { HANDLERS } from "./handlers";
import type { FromWorker, ToWorker } from "./protocol";

function requirePort(): MessagePort {
  if (!parentPort)
    throw new Error("lib/exec/service/worker.ts runs only as a worker thread of lib/exec/service/pool.ts");
  return parentPort;
}
const port = requirePort();
setNodeWebSocket(ws);

const send = (message: FromWorker) => port.postMessage(message);
const controllers = new Map<number, AbortController>();

const statusOf = (error: unknown): number => {
  if (error instanceof HandlerError) return error.status;
  const code = (error as { code?: unknown })?.code;
  if (code === "EFBIG") return 413;
  if ((error as { name?: unknown })?.name === "VfsConflictError") return 409;
  return 500;
};

async function main(): Promise<void> {
  const handlers = new Map<string, ExecHandler>();
  for (const [kind, load] of Object.entries(HANDLERS)) handlers.set(kind, (await load()).handler);
  port.on("message", async (message: ToWorker) => {
    if (message.type === "abort") {
      controllers.get(message.id)?.abort();
      return;
    }
    const { id, kind } = message;
    const controller = new AbortController();
    controllers.set(id, controller);
    try {
      const handler = handlers.get(kind);
      if (!handler) throw new HandlerError(`No handler for ${kind}`, 404);
      const result = await handler.run(message.request, {
        limits: message.limits,
        signal: controller.signal,
        bytes: message.bytes,
        trackProcess: (pid) => send({ type: "pid", id, pid }),
      });
      send({ type: "done", id, ok: true, result });
    } catch (error) {
      send({
        type: "done",
        id,
        ok: false,
        status: statusOf(error),
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      controllers.delete(id);
    }
  });
  send({ type: "ready" });
}

void main();
