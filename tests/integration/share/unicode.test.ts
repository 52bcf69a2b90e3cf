/**
 * Owner redaction strings and invisible / bidirectional Unicode, over HTTP (docs/sharing.md): a short or blank owner
 * string is refused with 400 naming its position (preview and publish), a repeated one counts once; a share whose
 * title, file name, file and message hold bidi controls (Trojan Source) shows them as `<U+…>` escapes with a warning
 * on the share page, the file page and the HTML export, never as raw characters; a fork's name may not hold one, and a
 * fork does not copy a file whose name holds one (stored by an older Strata: the VFS refuses to create it today) but
 * names it in its commit message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/s/[token]/export/route";
import { GET as filePage } from "@/app/s/[token]/files/[...path]/route";
import { GET as sharePage } from "@/app/s/[token]/route";
import { DbScope } from "@/lib/db/client";
import type { NewEntry } from "@/lib/session/entries";
import { appendEntry, setSessionTitle } from "@/lib/session/store";
import type { SharePreview } from "@/lib/share/types";
import { log } from "@/lib/vfs/git";
import { NAME_ERRORS } from "@/lib/vfs/names";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import type { TestUser } from "../../helpers/auth";
import { routes, share } from "./helpers";
import { call, ownerProject } from "./share-fixture";

const RLO = '<span class="uni uni-bidi" title="U+202E RIGHT-TO-LEFT OVERRIDE">&lt;U+202E&gt;</span>';
const LRI = '<span class="uni uni-bidi" title="U+2066 LEFT-TO-RIGHT ISOLATE">&lt;U+2066&gt;</span>';
const PDI = '<span class="uni uni-bidi" title="U+2069 POP DIRECTIONAL ISOLATE">&lt;U+2069&gt;</span>';
const FILE_WARNING =
  '<div class="bidi-warning" role="note">This file contains bidirectional Unicode text that may be interpreted differently than what appears below. The control characters are shown as &lt;U+…&gt; marks.</div>';
const MESSAGE_WARNING =
  '<div class="bidi-warning" role="note">This message contains bidirectional Unicode text that may be interpreted differently than what appears below. The control characters are shown as &lt;U+…&gt; marks.</div>';
const ANY_BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const TITLE = "Invoice \u202Efdp.exe report";
const EVIL_PATH = "src/evil\u202Etxt.js";
const EVIL_CODE = "const isAdmin = false;\n/*\u202E } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\n";

let scope: DbScope;
let owner: TestUser;
let sessionId: string;
let leafId: string;
let token: string;

beforeAll(async () => {
  scope = new DbScope();
  const f = await ownerProject(scope, { [EVIL_PATH]: EVIL_CODE, "readme.md": "# Plain\n" });
  owner = f.owner;
  sessionId = f.session.id;
  await setSessionTitle(scope, sessionId, TITLE);
  const user: NewEntry = {
    type: "message",
    message: { role: "user", content: "Please review \u2067this\u2069 change for Nightingale", timestamp: 1 },
  };
  await appendEntry(scope, sessionId, user);
  const answer: NewEntry = {
    type: "message",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "Looks fine." }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "stop",
      timestamp: 2,
    },
  };
  leafId = (await appendEntry(scope, sessionId, answer, { commit: f.initCommit })).id;
  token = (await share(owner, sessionId, { leafId, includeFiles: true })).token;
});

afterAll(async () => {
  await scope?.release();
});

const previewCall = (redact: string[]) =>
  call(
    routes.preview.POST,
    owner,
    `/api/sessions/${sessionId}/shares/preview`,
    { id: sessionId },
    { json: { leafId, redact } },
  );

describe("owner redaction strings", () => {
  it("publishing with a 3-character string answers 400 naming its position and the rule", async () => {
    const res = await call(
      routes.sessionShares.POST,
      owner,
      `/api/sessions/${sessionId}/shares`,
      { id: sessionId },
      { json: { leafId, redact: ["Nightingale", "abc"], digest: "0".repeat(64) } },
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      error: {
        code: "redaction_too_short",
        message:
          "Redaction 2 is shorter than 4 characters: a short string would redact ordinary text. Use a longer, exact string.",
      },
    });
  });

  it("the preview refuses it too, and a whitespace-only string, and one short without its end spaces", async () => {
    const short = await previewCall(["abc"]);
    expect([short.status, JSON.parse(short.body).error.code]).toEqual([400, "redaction_too_short"]);
    const blank = await previewCall(["Nightingale", "    "]);
    expect(blank.status).toBe(400);
    expect(JSON.parse(blank.body)).toEqual({
      error: {
        code: "redaction_blank",
        message:
          "Redaction 2 is empty or only whitespace: there is no text to redact. Remove it, or type the exact text to redact.",
      },
    });
    const spaced = await previewCall([" ab "]);
    expect(JSON.parse(spaced.body).error.message).toBe(
      "Redaction 1 is shorter than 4 characters once the whitespace at its ends is left out: a short string would redact ordinary text. Use a longer, exact string.",
    );
  });

  it("a repeated string counts once: the same preview as with it alone", async () => {
    const once = await previewCall(["Nightingale"]);
    const twice = await previewCall(["Nightingale", "Nightingale"]);
    expect([once.status, twice.status]).toEqual([200, 200]);
    const a = (JSON.parse(once.body) as { preview: SharePreview }).preview;
    const b = (JSON.parse(twice.body) as { preview: SharePreview }).preview;
    expect(b.digest).toBe(a.digest);
    expect(a.snapshot.redactions.map((r) => [r.site, r.rule])).toEqual([
      [{ kind: "entry", entry: 0, part: "content", line: 1 }, "owner"],
    ]);
  });
});

describe("bidirectional and invisible Unicode", () => {
  it("the share page shows the title's and the file name's controls as escapes, never raw", async () => {
    const res = await call(sharePage, null, `/s/${token}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toContain("<title>Invoice &lt;U+202E&gt;fdp.exe report · Strata</title>");
    expect(res.body).toContain(`<h1 class="share-title">Invoice ${RLO}fdp.exe report</h1>`);
    expect(res.body).toContain(
      `<a href="/s/${token}/files/src/evil%E2%80%AEtxt.js">src/evil${RLO}txt.js</a>`,
    );
    expect(res.body).not.toContain("\u202E");
    expect(res.body).not.toMatch(ANY_BIDI);
  });

  it("a message holding bidi controls carries the warning and shows them", async () => {
    const res = await call(sharePage, null, `/s/${token}`, { token });
    expect(res.body).toContain(
      `${MESSAGE_WARNING}<article class="message message-user" aria-label="You"><div class="markdown"><p>Please review <span class="uni uni-bidi" title="U+2067 RIGHT-TO-LEFT ISOLATE">&#x3C;U+2067></span>this<span class="uni uni-bidi" title="U+2069 POP DIRECTIONAL ISOLATE">&#x3C;U+2069></span> change for Nightingale</p></div></article>`,
    );
    expect(res.body.split('<div class="bidi-warning"').length - 1).toBe(1);
  });

  it("the file page warns and shows the controls in the highlighted code", async () => {
    const res = await call(filePage, null, `/s/${token}/files/src/evil%E2%80%AEtxt.js`, {
      token,
      path: ["src", "evil%E2%80%AEtxt.js"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain(`<h1 class="file-view-path">src/evil${RLO}txt.js</h1>`);
    expect(res.body).toContain(
      `${FILE_WARNING}<pre class="code" data-language="javascript"><code><span class="line" id="L1"><span class="hljs-keyword">const</span> isAdmin = <span class="hljs-literal">false</span>;</span><span class="line" id="L2"><span class="hljs-comment">/*${RLO} } ${LRI}if (isAdmin)${PDI} ${LRI} begin admins only */</span></span></code></pre>`,
    );
    expect(res.body).not.toMatch(ANY_BIDI);
  });

  it("the HTML export shows the same escapes and warnings, and its file name holds no control", async () => {
    const res = await call(exportRoute, null, `/api/s/${token}/export?format=html`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Invoice _fdp.exe report.html"; filename*=UTF-8''Invoice%20_fdp.exe%20report.html`,
    );
    expect(res.body).toContain(`<h1 class="share-title">Invoice ${RLO}fdp.exe report</h1>`);
    expect(res.body).toContain(
      `<summary>src/evil${RLO}txt.js <span class="muted">· 75 B</span> <span class="badge badge-warn">bidirectional Unicode</span></summary>${FILE_WARNING}<pre class="code" data-language="javascript">`,
    );
    expect(res.body).toContain(MESSAGE_WARNING);
    expect(res.body).not.toContain("\u202E");
    expect(res.body).not.toMatch(ANY_BIDI);
    // The JSONL keeps the data as it is (it is data, not a page).
    const jsonl = await call(exportRoute, null, `/api/s/${token}/export?format=jsonl`, { token });
    expect(jsonl.body).toContain("Please review \u2067this\u2069 change");
  });

  it("a fork's name may not hold a bidi control; the default name drops the title's; the file is not copied", async () => {
    const refused = await call(
      routes.fork.POST,
      owner,
      `/api/s/${token}/fork`,
      { token },
      { json: { name: "Fork \u202Eevil" } },
    );
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({
      error: {
        code: "bad_request",
        message:
          "name: The name must not contain bidirectional text controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): they make a name read differently from what it is",
      },
    });
    const forked = await call(routes.fork.POST, owner, `/api/s/${token}/fork`, { token }, { json: {} });
    expect(forked.status).toBe(201);
    const project = JSON.parse(forked.body).project as { name: string; rootPath: string };
    expect(project.name).toBe("Invoice fdp.exe report");
    const s = new DbScope();
    try {
      const { vfs } = openWorkspaceVfs(owner.workspaceId, s);
      expect(await vfs.readdir(project.rootPath)).toEqual([".git", "readme.md"]);
      const [head] = await log(vfs, project.rootPath, "HEAD", 1);
      expect(head.message).toBe(
        `Forked from shared session "${TITLE}"\n\nNot copied (names Strata does not create):\n- "src/evil<U+202E>txt.js": ${NAME_ERRORS.bidi}\n`,
      );
    } finally {
      await s.release();
    }
  });
});
