import { describeProviderError, type ProviderErrorKind } from "@/lib/llm/provider-errors";
import type { AssistantMessage } from "@/lib/llm/types";

/** Longest provider message the compact "retried" line quotes (longer ones end in "…"). */
const COMPACT_DETAIL_MAX = 160;

/** Where a failed assistant turn sits in the conversation (computed by message-list.tsx). */
export interface TurnPlace {
  /** A later assistant message exists: the turn was retried (automatically or with Retry) and went on. */
  superseded: boolean;
  /** The failed last turn while nothing runs: its hint and a Retry button show. */
  canRetry: boolean;
}

/** What a failed turn's marker shows: a compact muted line, or the full explanation. */
export type TurnErrorView =
  | { variant: "compact"; text: string }
  | {
      variant: "full";
      kind: ProviderErrorKind | "aborted";
      title: string;
      detail?: string;
      /** What to do next; only on the retryable last turn. */
      hint?: string;
      retry: boolean;
    };

/**
 * The marker of a failed (`stopReason` "error") or aborted assistant turn, derived only from the stored message
 * (`errorMessage`, `provider`, `model`) and its place, so a live turn and the same turn after a reload look the
 * same. A superseded error becomes `Provider error (<errorMessage>), retried`; otherwise
 * {@link describeProviderError}'s title and detail, plus its hint and Retry when `place.canRetry`.
 */
export function turnErrorView(message: AssistantMessage, place: TurnPlace): TurnErrorView {
  const raw = typeof message.errorMessage === "string" ? message.errorMessage.trim() : "";
  if (message.stopReason === "aborted")
    return {
      variant: "full",
      kind: "aborted",
      title: raw ? `Aborted: ${raw}` : "Aborted",
      retry: place.canRetry,
    };
  if (place.superseded) {
    const quoted = raw.length > COMPACT_DETAIL_MAX ? `${raw.slice(0, COMPACT_DETAIL_MAX - 1)}…` : raw;
    return {
      variant: "compact",
      text: quoted ? `Provider error (${quoted}), retried` : "Provider error, retried",
    };
  }
  const info = describeProviderError(raw || "Error", { provider: message.provider, model: message.model });
  return {
    variant: "full",
    kind: info.kind,
    title: info.title,
    detail: info.detail,
    hint: place.canRetry ? info.hint : undefined,
    retry: place.canRetry,
  };
}

/**
 * For each message index, the place of a failed or aborted assistant turn (others are absent): `superseded` when
 * an assistant message follows it, `canRetry` for the last message while `running` is false.
 */
export function turnPlaces(messages: readonly { role: string; stopReason?: string }[], running: boolean) {
  const places = new Map<number, TurnPlace>();
  let laterAssistant = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "assistant") continue;
    if (m.stopReason === "error" || m.stopReason === "aborted")
      places.set(i, { superseded: laterAssistant, canRetry: !running && i === messages.length - 1 });
    laterAssistant = true;
  }
  return places;
}
