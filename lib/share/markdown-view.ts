/**
 * The text a markdown string shows once rendered, with where each of its characters came from (docs/sharing.md,
 * "Redaction"). A key written `sk\_live\_…`, `sk&#45;ant…`, split by `**…**` or by a link is no secret to a pattern
 * run on the source, yet the share page renders the real key; so `redact.ts` also lints this view and maps each hit
 * back to the source range it was rendered from. The view is built from the same parser the share page renders with
 * (remark-parse with GFM): the text of each block's inline nodes joined (emphasis, strikethrough, links and inline
 * code give their text), blocks separated by a line break; within a node, each character is aligned to its source
 * (a backslash escape or a character reference maps to the whole of it), and a literal `*`, `~` or backtick is left
 * out (`sk-ant-**api03…` is not emphasis, yet a reader joins it). Node-only, like `redact.ts`.
 */
import type { Nodes, Root } from "mdast";
import { decodeString } from "micromark-util-decode-string";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

/** The rendered text and, per character, the source range `[starts[i], ends[i])` it came from. */
export interface MarkdownView {
  text: string;
  starts: number[];
  ends: number[];
}

const PARSER = unified().use(remarkParse).use(remarkGfm);

/** Characters whose presence may make the rendered text differ from the source. */
const MARKUP = /[\\&*_~`[<]/;

/**
 * The rendered view of `source`, or null when rendering cannot change its text (no markup character at all).
 * @returns the view; its `text` differs from `source` only where markup was.
 */
export function markdownView(source: string): MarkdownView | null {
  if (!MARKUP.test(source)) return null;
  const view: MarkdownView = { text: "", starts: [], ends: [] };
  const tree = PARSER.parse(source) as Root;
  walk(tree, source, view);
  return view;
}

/** The source range a hit `[start, end)` of the view was rendered from (`end > start`). */
export function sourceRange(view: MarkdownView, start: number, end: number): { start: number; end: number } {
  let from = Number.POSITIVE_INFINITY;
  let to = 0;
  for (let i = start; i < end && i < view.starts.length; i++) {
    from = Math.min(from, view.starts[i]);
    to = Math.max(to, view.ends[i]);
  }
  return { start: from, end: to };
}

/** Inline nodes whose text is shown: their `value`, aligned to the source. */
function isTextual(node: Nodes): node is Extract<Nodes, { value: string }> {
  return node.type === "text" || node.type === "inlineCode";
}

/** Depth-first: textual nodes append their aligned value; a block (not phrasing content) ends with a line break. */
function walk(node: Nodes, source: string, view: MarkdownView): void {
  if (node.type === "code" || node.type === "html" || node.type === "break") {
    // Code blocks and raw HTML render their source as it is (the source lint covers them); a break is a line end.
    push(view, "\n", node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
    return;
  }
  if (isTextual(node)) {
    align(node.value, source, node.position?.start.offset ?? 0, node.position?.end.offset ?? 0, view);
    return;
  }
  if ("children" in node) for (const child of node.children) walk(child as Nodes, source, view);
  if (node.type === "paragraph" || node.type === "heading" || node.type === "tableCell")
    push(view, "\n", node.position?.end.offset ?? 0, node.position?.end.offset ?? 0);
}

function push(view: MarkdownView, text: string, start: number, end: number): void {
  for (const ch of text) {
    view.text += ch;
    view.starts.push(start);
    view.ends.push(end);
  }
}

/** Characters left out of the view when shown literally: they split a key for a pattern, not for a reader. */
const NOISE = new Set(["*", "~", "`"]);
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const REFERENCE = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/;

/**
 * Append `value` (a node's shown text) aligned to `source[from, to)`: a backslash escape or a character reference
 * gives its character(s) the whole of its source; other characters map one to one; source whitespace the value does
 * not hold (a soft line break's indentation) is skipped. Whatever cannot be aligned maps to the rest of the node.
 */
function align(value: string, source: string, from: number, to: number, view: MarkdownView): void {
  let i = from;
  let j = 0;
  while (j < value.length) {
    if (i >= to) {
      push(view, value.slice(j), from, to);
      return;
    }
    const ch = source[i];
    if (ch === "\\" && i + 1 < to && ESCAPABLE.test(source[i + 1]) && source[i + 1] === value[j]) {
      push(view, value[j], i, i + 2);
      i += 2;
      j++;
      continue;
    }
    if (ch === "&") {
      const ref = REFERENCE.exec(source.slice(i, i + 40))?.[0];
      const decoded = ref ? decodeString(ref) : undefined;
      if (ref && decoded && decoded !== ref && value.startsWith(decoded, j)) {
        push(view, decoded, i, i + ref.length);
        i += ref.length;
        j += decoded.length;
        continue;
      }
    }
    if (ch === value[j]) {
      // A literal `*`, `~` or backtick shows, but only splits what it stands in (`sk-ant-**api03…`): left out.
      if (!NOISE.has(ch)) push(view, ch, i, i + 1);
      i++;
      j++;
      continue;
    }
    if (/\s/.test(ch) || ch === "`") {
      i++;
      continue;
    }
    push(view, value.slice(j), i, to);
    return;
  }
}
