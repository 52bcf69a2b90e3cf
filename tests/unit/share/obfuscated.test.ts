/**
 * Secrets written so that a pattern on the source misses them but the rendered page shows them (issue: 6 of 6
 * markdown forms reached public URLs), and secrets in config formats and encodings with no pattern of their own: each
 * is redacted where it is written, whole.
 */
import { describe, expect, it } from "vitest";
import { encodedRuns } from "@/lib/share/encoded";
import { markdownView, sourceRange } from "@/lib/share/markdown-view";
import { redactTexts } from "@/lib/share/redact";

const STRIPE = "51HabcdefGHIJKLmnopQRSTuv";
const GH = "abcdefghijklmnopqrstuvwxyz0123456789";
const ANT_BODY = `api03-${"Qz7Xw2Lm9Rt4".repeat(7)}AbCdEfGh-AA`;
const ANTHROPIC = `sk-ant-${ANT_BODY}`;

const one = async (text: string, filePath?: string) => (await redactTexts([{ text, filePath }]))[0];
const base64 = (s: string) => Buffer.from(s).toString("base64");
const hex = (s: string) => Buffer.from(s).toString("hex");

describe("markdown-obfuscated keys in a message", () => {
  it.each([
    ["escaped underscores", `key sk\\_live\\_${STRIPE} end`, "key [redacted:StripeKey] end"],
    ["escaped GitHub token", `ghp\\_${GH}`, "[redacted:GITHUB_TOKEN]"],
    ["escaped dashes", `use sk\\-ant\\-${ANT_BODY} now`, "use [redacted:ANTHROPIC_API_KEY] now"],
    ["character references", `use sk&#45;ant&#x2D;${ANT_BODY} now`, "use [redacted:ANTHROPIC_API_KEY] now"],
    ["split by emphasis", `x **sk-ant**-${ANT_BODY} ok`, "x **[redacted:ANTHROPIC_API_KEY] ok"],
    ["split by literal asterisks", `sk-ant-**${ANT_BODY} ok`, "[redacted:ANTHROPIC_API_KEY] ok"],
    ["split by a link", `[sk-ant-](https://example.com)${ANT_BODY}`, "[[redacted:ANTHROPIC_API_KEY]"],
    ["inline code in pieces", `\`sk_live_\`${STRIPE}`, "`[redacted:StripeKey]"],
  ])("%s", async (_name, text, expected) => {
    const r = await one(text);
    expect(r.text).toBe(expected);
    expect(r.findings).toHaveLength(1);
  });

  it("leaves markdown without secrets exactly as written", async () => {
    const text = "Use **bold**, `code`, [a link](https://example.com) and a\\_b &amp; c.\n\n- item *one*\n";
    expect((await one(text)).text).toBe(text);
  });

  it("maps each rendered character back to the source it came from", () => {
    const view = markdownView("a\\_b &#45; **c**")!;
    expect(view.text).toBe("a_b - c\n");
    expect(sourceRange(view, 1, 2)).toEqual({ start: 1, end: 3 });
    expect(sourceRange(view, 4, 5)).toEqual({ start: 5, end: 10 });
    expect(sourceRange(view, 6, 7)).toEqual({ start: 13, end: 14 });
    expect(markdownView("plain text, nothing to render")).toBeNull();
  });
});

describe("encoded keys", () => {
  it("redacts a base64 or hex encoding of a known key whole, in any text or file", async () => {
    const text = `b64 ${base64(ANTHROPIC)}\nhex ${hex(ANTHROPIC)}\n`;
    expect((await one(text)).text).toBe("b64 [redacted:Base64Encoded]\nhex [redacted:HexEncoded]\n");
    expect((await one(text, "src/config.py")).text).toBe(
      "b64 [redacted:Base64Encoded]\nhex [redacted:HexEncoded]\n",
    );
  });

  it("leaves encodings of ordinary text and binary digests alone", async () => {
    const text = [
      `note ${base64("the token bucket refills every second")}`,
      "integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR2t0mJX2fpmhIW0A==",
      "sha 3f786850e387550fdab836ed7e6dc881de23001b",
      "",
    ].join("\n");
    expect((await one(text)).text).toBe(text);
    expect(encodedRuns(text).map((r) => [r.kind, r.decoded])).toEqual([
      ["Base64Encoded", "the token bucket refills every second"],
    ]);
  });
});

describe("config formats", () => {
  it("redacts a .pgpass line, Docker's auth, DB_PASS= and a .netrc password", async () => {
    expect((await one("localhost:5432:*:app:Pg-Pass-2024\n", "home/.pgpass")).text).toBe(
      "localhost:5432:*:app:[redacted:PgpassPassword]\n",
    );
    expect((await one('{"auths":{"https://index.docker.io/v1/":{"auth":"YWRhOnMzY3IzdA=="}}}')).text).toBe(
      '{"auths":{"https://index.docker.io/v1/":{"auth":"[redacted:DockerAuth]"}}}',
    );
    expect((await one("DB_PASS=s3cret-db-pass\nDB_PWD=other-pass-1\n")).text).toBe(
      "DB_PASS=[redacted:SecretAssignment]\nDB_PWD=[redacted:SecretAssignment]\n",
    );
  });
});
