/**
 * The composer's draft, kept per session in the browser's storage so a typed prompt survives a reload and any
 * failed request: saved as it is typed, still stored while a prompt is on its way, removed once the server
 * accepted that prompt (tests/unit/components/draft-store.test.ts).
 */

/** The storage a draft lives in (`window.localStorage` in the browser). */
export type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The storage key of a session's draft. */
export const draftKey = (sessionId: string) => `strata.draft.${sessionId}`;

/** The session's stored draft, `""` when there is none or the storage is unavailable. */
export function loadDraft(storage: DraftStorage | null, sessionId: string): string {
  try {
    return storage?.getItem(draftKey(sessionId)) ?? "";
  } catch {
    return "";
  }
}

/** Stores the session's draft; an empty (all white space) draft removes it. False when the storage refused it. */
export function saveDraft(storage: DraftStorage | null, sessionId: string, text: string): boolean {
  if (!storage) return false;
  try {
    if (text.trim() === "") storage.removeItem(draftKey(sessionId));
    else storage.setItem(draftKey(sessionId), text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A stored draft once the server accepted `sent`: without `sent` when the draft starts with it (alone, or
 * followed by a blank line and what was typed since); unchanged otherwise.
 */
export function withoutSent(stored: string, sent: string): string {
  if (stored === sent) return "";
  if (stored.startsWith(`${sent}\n\n`)) return stored.slice(sent.length + 2);
  return stored;
}

/**
 * The text to store for a session: the texts still on their way to the server (oldest first) that it has not
 * taken yet (`released`: its POST answered with the run's stream), then what the box shows; blank parts are left
 * out and the rest joined by a blank line (as `restoreDraft`).
 */
export function storedDraft(
  inFlight: readonly { text: string; released?: boolean }[],
  visible: string,
): string {
  return [...inFlight.filter((s) => !s.released).map((s) => s.text), visible]
    .filter((t) => t.trim() !== "")
    .join("\n\n");
}

/** The browser's `localStorage`, or null where it is unavailable (private modes, SSR). */
export function browserStorage(): DraftStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}
