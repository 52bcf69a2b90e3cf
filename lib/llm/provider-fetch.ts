/**
 * The `fetch` every provider request of `streamAssistant` goes through: the wire fix-ups of the request body
 * (lib/llm/provider-wire.ts), pi's `onPayload` hook, and the idle watch of the response (./stream-guards.ts).
 */
import { touchingResponse } from "./stream-guards";

/** What {@link providerFetch} does around the base `fetch`. */
export interface ProviderFetchHooks {
  /**
   * Sees the exact JSON request body and the URL before it is sent; may return a replacement body (`undefined`
   * keeps it). pi's `onPayload`, with the URL instead of the model.
   */
  onPayload?: (payload: unknown, url: string) => unknown | undefined | Promise<unknown | undefined>;
  /** The body fix of the prepared request, read when the request is sent (undefined: none). */
  fix: () => ((body: unknown) => unknown) | undefined;
  /** Called when the request is sent, when the response headers arrive and whenever body bytes arrive (idle watch). */
  touch?: () => void;
}

/**
 * A `fetch` that applies `hooks.fix` to each JSON request body, shows it to `onPayload` and sends its replacement,
 * if any, then calls `hooks.touch` as it sends the request and on the response's headers and body bytes. A body that is not a JSON string is
 * sent as is. Rejects as `base` does (a thrown `onPayload` rejects with its error).
 */
export function providerFetch(base: typeof fetch, hooks: ProviderFetchHooks): typeof fetch {
  const { onPayload, fix, touch } = hooks;
  const watched = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // The silence is counted from the request leaving, not from before a slow `onPayload`.
    touch?.();
    const response = await base(input, init);
    if (!touch) return response;
    touch();
    return touchingResponse(response, touch);
  };
  const hooked = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const fixBody = fix();
    if (typeof init?.body !== "string" || (!onPayload && !fixBody)) return watched(input, init);
    let payload: unknown;
    try {
      payload = JSON.parse(init.body);
    } catch {
      return watched(input, init);
    }
    if (fixBody) payload = fixBody(payload);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const replacement = onPayload ? await onPayload(payload, url) : undefined;
    const body = JSON.stringify(replacement === undefined ? payload : replacement);
    return watched(input, body === init.body ? init : { ...init, body });
  };
  return hooked as typeof fetch;
}
