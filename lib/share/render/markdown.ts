/**
 * Markdown of user and assistant text as safe HTML for share pages and exports: unified with `remark-parse` +
 * `remark-gfm` → `remark-rehype` (raw HTML in the markdown is dropped, never passed) → `rehype-sanitize` (the
 * default GitHub schema: no scripts, no event-handler attributes, no `javascript:` URLs) → a last pass of our own
 * ({@link shareLinks}) → `rehype-stringify`. The last pass gives every link `rel="noopener noreferrer nofollow"`
 * and `target="_blank"`, turns every markdown image into a link to it (nothing outside the page is loaded),
 * wraps redaction markers in `<mark class="redacted">` and shows bidi controls and invisible characters as
 * `<span class="uni">&lt;U+…&gt;</span>` escapes (`unicode.ts`, profile `text`). Pure and edge-safe.
 */
import type { Element, ElementContent, Root, RootContent } from "hast";
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { REDACTION_MARKER } from "./escape";
import { hasRevealable, splitUnicode } from "./unicode";

/** The `rel` every rendered link carries. */
export const LINK_REL = "noopener noreferrer nofollow";

function linkProps(href: string): Element["properties"] {
  return { href, rel: LINK_REL.split(" "), target: "_blank" };
}

/** A markdown image as a link to its source (its alt text, or the URL, as the link text); no source → the alt text. */
function imageAsLink(img: Element): ElementContent {
  const src = typeof img.properties.src === "string" ? img.properties.src : "";
  const alt = typeof img.properties.alt === "string" ? img.properties.alt : "";
  if (!src) return { type: "text", value: alt };
  return {
    type: "element",
    tagName: "a",
    properties: linkProps(src),
    children: [{ type: "text", value: alt ? `[image: ${alt}]` : `[image: ${src}]` }],
  };
}

/** Text as nodes, each bidi control or invisible character a `<span class="uni">` with its `<U+…>` escape. */
function revealText(value: string): ElementContent[] {
  return splitUnicode(value, "text").map(
    (part): ElementContent =>
      "text" in part
        ? { type: "text", value: part.text }
        : {
            type: "element",
            tagName: "span",
            properties: {
              className: part.bidi ? ["uni", "uni-bidi"] : ["uni"],
              title: part.name ? `${part.label} ${part.name}` : part.label,
            },
            children: [{ type: "text", value: `<${part.label}>` }],
          },
  );
}

/** A text node split around redaction markers (as `<mark class="redacted">`) and revealed characters. */
function splitRedactions(value: string): ElementContent[] {
  const out: ElementContent[] = [];
  let last = 0;
  for (const m of value.matchAll(REDACTION_MARKER)) {
    const at = m.index ?? 0;
    if (at > last) out.push(...revealText(value.slice(last, at)));
    out.push({
      type: "element",
      tagName: "mark",
      properties: { className: ["redacted"] },
      children: revealText(m[0]),
    });
    last = at + m[0].length;
  }
  if (last < value.length) out.push(...revealText(value.slice(last)));
  return out;
}

function walk(children: (RootContent | ElementContent)[]): (RootContent | ElementContent)[] {
  const out: (RootContent | ElementContent)[] = [];
  for (const node of children) {
    if (node.type === "element") {
      if (node.tagName === "img") {
        out.push(imageAsLink(node));
        continue;
      }
      if (node.tagName === "a") {
        node.properties.rel = LINK_REL.split(" ");
        node.properties.target = "_blank";
      }
      node.children = walk(node.children) as ElementContent[];
      out.push(node);
    } else if (
      node.type === "text" &&
      (node.value.includes("[redacted:") || hasRevealable(node.value, "text"))
    ) {
      out.push(...splitRedactions(node.value));
    } else out.push(node);
  }
  return out;
}

/** The rehype pass after sanitising: link attributes, images as links, redaction markers. */
function shareLinks() {
  return (tree: Root) => {
    tree.children = walk(tree.children) as RootContent[];
  };
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(shareLinks)
  .use(rehypeStringify)
  .freeze();

/**
 * `text` (GitHub-flavoured markdown) as sanitised HTML wrapped in `<div class="markdown">`. Total: a non-string is
 * rendered as `""`; the output never holds a `<script`, an `on…=` attribute, a `javascript:` URL or an `<img>`.
 */
export function renderMarkdown(text: unknown): string {
  const source = typeof text === "string" ? text : "";
  return `<div class="markdown">${String(processor.processSync(source))}</div>`;
}
