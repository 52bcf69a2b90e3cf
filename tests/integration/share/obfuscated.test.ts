/**
 * Secrets the share page would render though no pattern sees them in the source (issue: 11 of 43 seeded secrets
 * reached public URLs): markdown-obfuscated keys in a message, base64 and hex encodings of a known key, a `.pgpass`
 * line, Docker's `config.json` auth and `DB_PASS=`. None reaches the share page, a file page or the HTML / JSONL
 * export, as text or once the page's HTML is decoded.
 */
import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/s/[token]/export/route";
import { GET as filePage } from "@/app/s/[token]/files/[...path]/route";
import { GET as sharePage } from "@/app/s/[token]/route";
import { getSession } from "@/lib/session/store";
import { share } from "./helpers";
import { call, mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

const STRIPE = "51HabcdefGHIJKLmnopQRSTuv";
const GH = "abcdefghijklmnopqrstuvwxyz0123456789";
const ANT_BODY = `api03-${"Qz7Xw2Lm9Rt4".repeat(7)}AbCdEfGh-AA`;
const ANTHROPIC = `sk-ant-${ANT_BODY}`;
const PG = "Pg-Pass-2024-x";
const DOCKER = Buffer.from("ada:Dock3r-Pass-99").toString("base64");
const DB = "Db-Pass-7788-q";

/** What a reader sees of an HTML body: tags dropped, character references decoded. */
function shown(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

describe("obfuscated and encoded secrets", () => {
  it("are redacted on the share page, the file pages and both exports", async () => {
    const f = await ownerProject(scope, {
      ".pgpass": `db.internal:5432:app:app:${PG}\n`,
      "docker/config.json": `{"auths":{"ghcr.io":{"auth":"${DOCKER}"}}}\n`,
      "deploy.sh": `export DB_PASS=${DB}\n`,
    });
    const message = [
      `stripe sk\\_live\\_${STRIPE}`,
      `github ghp\\_${GH}`,
      `escaped sk\\-ant\\-${ANT_BODY}`,
      `entity sk&#45;ant&#45;${ANT_BODY}`,
      `bold **sk-ant**-${ANT_BODY}`,
      `link [sk-ant-](https://example.com)${ANT_BODY}`,
      `base64 ${Buffer.from(ANTHROPIC).toString("base64")}`,
      `hex ${Buffer.from(ANTHROPIC).toString("hex")}`,
    ].join("\n\n");
    await prompt(mock, f, message, []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { preview, token } = await share(f.owner, f.session.id, { leafId, includeFiles: true });
    // The session's title is the prompt's first line, whose key was taken out when the session was titled
    // (titleFromPrompt): the share finds nothing left there.
    expect((await getSession(scope, f.session.id))?.title).toMatch(
      /^stripe \[redacted\] github \[redacted\] /,
    );
    expect(preview.snapshot.redactions.map((r) => `${r.site.kind}:${r.kind}`).sort()).toEqual(
      [
        "entry:ANTHROPIC_API_KEY",
        "entry:ANTHROPIC_API_KEY",
        "entry:ANTHROPIC_API_KEY",
        "entry:ANTHROPIC_API_KEY",
        "entry:Base64Encoded",
        "file:DockerAuth",
        "entry:GITHUB_TOKEN",
        "entry:HexEncoded",
        "file:PgpassPassword",
        "file:SecretAssignment",
        "entry:StripeKey",
      ].sort(),
    );

    const bodies = [
      (await call(sharePage, null, `/s/${token}`, { token })).body,
      (await call(exportRoute, null, `/api/s/${token}/export?format=html`, { token })).body,
      (await call(exportRoute, null, `/api/s/${token}/export?format=jsonl`, { token })).body,
      ...(await Promise.all(
        [".pgpass", "docker/config.json", "deploy.sh"].map(
          async (path) =>
            (
              await call(filePage, null, `/s/${token}/files/${path}`, { token, path: path.split("/") })
            ).body,
        ),
      )),
    ];
    for (const body of bodies)
      for (const secret of [STRIPE, GH, ANT_BODY.slice(6, 30), PG, DOCKER, DB]) {
        expect(body).not.toContain(secret);
        expect(shown(body)).not.toContain(secret);
      }
  });
});
