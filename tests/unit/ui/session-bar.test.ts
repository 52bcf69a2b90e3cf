/** Server-rendered markup of the session bar's file controls, its Tree button and the closed session tree. */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SessionBar } from "@/components/chat/session-bar";
import { SessionTree } from "@/components/session-tree/session-tree";

const session = {
  id: "11111111-1111-4111-8111-111111111111",
  projectId: "22222222-2222-4222-8222-222222222222",
  title: "Tour",
  model: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

const bar = (sessionId: string | null, onOpenTree?: () => void) =>
  renderToStaticMarkup(
    createElement(SessionBar, {
      onOpenTree,
      sessions: sessionId ? [session] : [],
      sessionId,
      onSelectSession: () => {},
      onNewSession: () => {},
      models: [],
      model: "",
      onSelectModel: () => {},
      busy: false,
    }),
  );

describe("SessionBar file controls", () => {
  it("links Export to the session's download and offers an import file input", () => {
    const html = bar(session.id);
    expect(html).toContain(`href="/api/sessions/${session.id}/export"`);
    expect(html).toContain('aria-label="Export session as pi JSONL"');
    expect(html).toContain("download");
    expect(html).toContain(">Import session</button>");
    expect(html).toMatch(/<input[^>]*type="file"[^>]*aria-label="Import session file"/);
  });

  it("disables Export and Import without a session or project", () => {
    const html = bar(null);
    expect(html).toMatch(/<button[^>]*disabled[^>]*aria-label="Export session as pi JSONL"/);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Import session<\/button>/);
  });

  it("offers the Tree button (Alt+T) only when asked, disabled without a session", () => {
    expect(bar(session.id)).not.toContain(">Tree</button>");
    expect(bar(session.id, () => {})).toMatch(/<button[^>]*aria-keyshortcuts="Alt\+T"[^>]*>Tree<\/button>/);
    expect(bar(null, () => {})).toMatch(/<button[^>]*disabled=""[^>]*>Tree<\/button>/);
  });

  it("the session tree renders nothing while closed", () => {
    const props = {
      sessionId: session.id,
      sessionName: "Tour",
      open: false,
      onOpenChange: () => {},
      busy: false,
      readOnly: false,
      onMoved: () => {},
      onForked: () => {},
      onRenamed: () => {},
      onCompacted: () => {},
    };
    expect(renderToStaticMarkup(createElement(SessionTree, props))).toBe("");
  });
});
