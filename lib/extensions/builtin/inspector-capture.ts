/**
 * Built-in extension: records the final provider payload of each request (after every
 * `before_provider_request` handler) for the context inspector.
 */
import type { ExtensionModule } from "../types";

/** One captured request. */
export interface CapturedRequest {
  /** 1-based, in request order. */
  seq: number;
  url?: string;
  /** A `structuredClone` of the body as sent. */
  payload: unknown;
  timestamp: number;
}

export const INSPECTOR_CAPTURE_PATH = "builtin:inspector-capture";

/** The extension and its captures (newest last, at most `limit`, default 20). */
export function createInspectorCapture(options: { limit?: number } = {}): {
  extension: ExtensionModule;
  captures: CapturedRequest[];
  clear(): void;
} {
  const limit = options.limit ?? 20;
  const captures: CapturedRequest[] = [];
  let seq = 0;
  const extension: ExtensionModule = {
    path: INSPECTOR_CAPTURE_PATH,
    setup(api) {
      api.on("provider_payload", (event) => {
        seq += 1;
        captures.push({
          seq,
          url: event.url,
          payload: structuredClone(event.payload),
          timestamp: Date.now(),
        });
        if (captures.length > limit) captures.splice(0, captures.length - limit);
      });
    },
  };
  return { extension, captures, clear: () => void captures.splice(0) };
}
