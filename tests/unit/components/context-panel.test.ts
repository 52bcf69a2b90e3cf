/**
 * How the Context panel (components/chat/context-panel.tsx) words what rule loading did, rendered to static markup
 * from exactly what `GET /api/sessions/:id/resources` answers for the rule-links layout (tests/helpers/rule-links.ts;
 * the route's answer itself: tests/integration/http/rule-loading-route.test.ts): the header counts 2 diagnostics (the
 * duplicate is info, not a problem); open, it shows the session's cwd, the two context files in effect — the
 * symlinked AGENTS.md naming its other path and real path ("loaded once"), the 70,000-byte one marked truncated with
 * "65500 of 70000 bytes loaded" and its marker line — and the two warnings as lines of "Resource diagnostics";
 * CLAUDE.md appears nowhere.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ResourceProvenance, SessionResourcesResponse } from "@/components/api-client";
import { ContextPanel, FileNotes } from "@/components/chat/context-panel";
import { ruleLinkDiagnostics } from "../../helpers/rule-links";

const root = "/rules";
const cwd = `${root}/pkg/app/src`;
const marker = `[Strata: truncated ${root}/pkg/app/AGENTS.md: loaded 65500 of 70000 bytes (per-file cap 65536 bytes)]`;
const diagnostics = ruleLinkDiagnostics(root, cwd);

const contextFile = (path: string): ResourceProvenance => ({
  kind: "context",
  path,
  filesystem: "project",
  scope: "project",
  trustGated: false,
  lastChangedBy: "Rules",
  // No time: the "· N ago" part depends on the clock (its wording is time-ago.test.ts's).
  lastChangedAt: null,
});

/** The route's answer for a session in `cwd` (its provenance and diagnostics as the route test asserts them). */
const data: SessionResourcesResponse = {
  provenance: [contextFile(`${root}/pkg/AGENTS.md`), contextFile(`${root}/pkg/app/AGENTS.md`)],
  preview: null,
  diagnostics,
  trust: {
    trusted: true,
    needsDecision: false,
    prompt: "",
    options: [],
    cwd,
    sessionOverride: null,
    withheld: [],
  },
  commands: [],
};

const render = (initiallyOpen: boolean) =>
  renderToStaticMarkup(createElement(ContextPanel, { data, error: null, initiallyOpen }));

/** The text a reader sees in `html` (tags and React's text separators removed, entities decoded). */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The inner markup of each `<li …>` of the first element of `html` that `start` opens and `end` closes. */
function items(html: string, start: string, end: string): string[] {
  const from = html.indexOf(start);
  expect(from, `${start} in the markup`).toBeGreaterThanOrEqual(0);
  const part = html.slice(from, html.indexOf(end, from));
  return [...part.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) => m[1]);
}

describe("ContextPanel for the rule-links layout", () => {
  it("collapsed: the header counts the two warnings as diagnostics, not the info duplicate", () => {
    const html = render(false);
    expect(html).toContain('<span class="badge badge-warn">2 diagnostics</span>');
    expect(textOf(html)).toBe("▸ Context2 in effect2 diagnostics");
    expect(html).toContain('aria-expanded="false"');
  });

  it("open: the cwd, the two context files with their notes, the warnings; no CLAUDE.md", () => {
    const html = render(true);
    expect(html).toContain(`<span class="muted mono"> ${cwd}</span>`);

    const files = items(html, '<section class="resource-group" aria-label="Context files">', "</section>");
    expect(files.map(textOf)).toEqual([
      `Project${root}/pkg/AGENTS.mdSame file as ${root}/AGENTS.md (real path ${root}/AGENTS.md); loaded oncechanged by Rules`,
      `Project${root}/pkg/app/AGENTS.mdtruncated65500 of 70000 bytes loadedEnds with: ${marker}changed by Rules`,
    ]);
    expect(files[1]).toContain('<span class="badge badge-warn">truncated</span>');
    expect([...files[1].matchAll(/<code[^>]*>(.*?)<\/code>/g)].map((m) => m[1])).toEqual([marker]);

    expect(html).toMatch(/<div class="notice notice-warning" role="status">.*Resource diagnostics/);
    expect(items(html, '<ul class="diagnostics">', "</ul>").map(textOf)).toEqual([
      `warning: symlink ${cwd}/AGENTS.md -> ../../../../../../etc/AGENTS.md leaves the workspace; not followed, and no other context file of ${cwd} is loaded in its place (${cwd}/AGENTS.md)`,
      `warning: Context file ${root}/pkg/app/AGENTS.md truncated: 70000 bytes, 65500 loaded (per-file cap 65536 bytes) (${root}/pkg/app/AGENTS.md)`,
    ]);
    // The duplicate names a listed file: a note on that file, not a separate "Resource notes" line.
    expect(html).not.toContain("Resource notes");
    expect(html).not.toContain("CLAUDE.md");
  });
});

describe("FileNotes", () => {
  const notes = (path: string, list = diagnostics) =>
    renderToStaticMarkup(createElement(FileNotes, { path, diagnostics: list }));

  it("a truncated file: the badge, loaded of total bytes, and the marker line it ends with", () => {
    expect(textOf(notes(`${root}/pkg/app/AGENTS.md`))).toBe(
      `truncated65500 of 70000 bytes loadedEnds with: ${marker}`,
    );
  });

  it("a file loaded once for two paths: the other path and the real path", () => {
    expect(textOf(notes(`${root}/pkg/AGENTS.md`))).toBe(
      `Same file as ${root}/AGENTS.md (real path ${root}/AGENTS.md); loaded once`,
    );
  });

  it("a truncation without a marker has no 'Ends with'; a file with no diagnostic has no note", () => {
    const [, , truncated] = diagnostics;
    expect(textOf(notes(`${root}/pkg/app/AGENTS.md`, [{ ...truncated, marker: undefined }]))).toBe(
      "truncated65500 of 70000 bytes loaded",
    );
    expect(notes(`${cwd}/main.ts`)).toBe("");
  });
});
