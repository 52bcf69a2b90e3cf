/**
 * One worker process of the execution service's pool (forked by worker-process.ts): loads every handler of the
 * registry, then runs the commands the service sends it over IPC, one at a time, and answers each with `done`.
 * The service enforces the wall-clock, CPU and memory limits by killing the process; a handler enforces the
 * output cap itself. Node-only.
 */
import ws from "ws";
import { setNodeWebSocket } from "@/lib/db/client";
import type { ExecHandler } from "./handler";
import { HandlerError } from "./handler";
import { HANDLERS } from "./handlers";
import type { FromWorker, ToWorker } from "./protocol";

if (!process.send)
  throw new Error("lib/exec/service/worker.ts runs only as a worker process of lib/exec/service/pool.ts");
setNodeWebSocket(ws);
// The service is gone (it died or closed the channel): a worker never outlives it.
process.on("disconnect", () => process.exit(0));

const send = (message: FromWorker) => process.send?.(message);
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
  process.on("message", async (message: ToWorker) => {
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
