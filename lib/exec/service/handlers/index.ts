/**
 * The execution service's handler registry: kind → its module (`./<kind>.ts`, exporting `handler`), loaded in
 * each pool worker at its start. Add a kind with one line here. Node-only.
 */
import type { ExecHandler } from "../handler";

/** Handlers by kind; `POST /v1/<kind>` runs `handler.run` in a worker. */
export const HANDLERS: Record<string, () => Promise<{ handler: ExecHandler }>> = {
  shell: () => import("./shell"),
  import: () => import("./import"),
  sandbox: () => import("./sandbox"),
};
