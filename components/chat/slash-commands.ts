/**
 * Pure logic of the composer's `/` autocomplete: when it opens, what it lists for the typed query, and the text a
 * pick leaves in the composer.
 */
import type { SlashCommand } from "@/lib/projects/slash-commands";

export type { SlashCommand };

/**
 * The query of the autocomplete: the text after a leading `/` up to the caret, while that text has no white space
 * (`"/sk"` with the caret at 3 → `"sk"`; `"/"` → `""`). Null when the value does not start with `/`, when white
 * space comes before the caret (the command name is done, arguments follow) or for `!`-commands.
 */
export function slashQuery(value: string, caret: number): string | null {
  if (!value.startsWith("/") || caret < 1) return null;
  const head = value.slice(1, caret);
  return /\s/.test(head) ? null : head;
}

/** 0: the name starts with the query; 1: a part of it (after `:`, `-`, `_`, `.`, `/`) does; 2: contains it; 3: its letters in order. */
function rank(name: string, query: string): number {
  if (name.startsWith(query)) return 0;
  const at = name.indexOf(query);
  if (at > 0 && /[:\-_./]/.test(name[at - 1])) return 1;
  for (let i = name.indexOf(query, at + 1); i > 0; i = name.indexOf(query, i + 1))
    if (/[:\-_./]/.test(name[i - 1])) return 1;
  if (at >= 0) return 2;
  let k = 0;
  for (const ch of name) if (ch === query[k]) k++;
  return k === query.length ? 3 : -1;
}

/**
 * The commands matching `query` (case-insensitive, on the name only), best first: prefix matches, then matches
 * at the start of a name part (`rev` → `skill:review`), then anywhere in the name, then names holding the query's
 * letters in order (`cpt` → `compact`); the given order within each group. An empty query lists everything.
 */
export function filterSlashCommands(commands: readonly SlashCommand[], query: string): SlashCommand[] {
  const q = query.toLowerCase();
  if (q === "") return [...commands];
  return commands
    .map((command, index) => ({ command, index, rank: rank(command.name.toLowerCase(), q) }))
    .filter((c) => c.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((c) => c.command);
}

/**
 * The composer text after picking `name`: the leading `/token` becomes `/name`, followed by one space and what
 * followed the token (its leading white space dropped). `("/rev", "review")` → `"/review "`;
 * `("/re src/a.ts", "review")` → `"/review src/a.ts"`.
 * @returns the text and the caret position (right after `/name `).
 */
export function applySlashPick(value: string, name: string): { value: string; caret: number } {
  const token = /^\/\S*/.exec(value)?.[0] ?? "";
  const rest = value.slice(token.length).replace(/^\s+/, "");
  const head = `/${name} `;
  return { value: head + rest, caret: head.length };
}
