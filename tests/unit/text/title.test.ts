/**
 * A session's title is its first prompt, shown in the session list: a key pasted into that prompt is replaced by
 * `[redacted]` (a `NAME=value` keeps its name), while ordinary words, paths, versions and dates stay.
 */
import { describe, expect, it } from "vitest";
import { titleFromPrompt } from "@/lib/text/credential-shape";

describe("titleFromPrompt", () => {
  it.each([
    ["use sk-ant-api03-AbCdEf0123456789xyzXYZ to call", "use [redacted] to call"],
    [
      "set ANTHROPIC_API_KEY=sk-ant-api03-AbCdEf0123456789xyz and run",
      "set ANTHROPIC_API_KEY=[redacted] and run",
    ],
    ['token "ghp_abcdefghijklmnopqrstuvwxyz0123456789", please', "token [redacted] please"],
    ["aws AKIAIOSFODNN7EXAMPLE key", "aws [redacted] key"],
    ["password: Zx8#kQ2!mN5$pL9@wR3^tY6&", "password: [redacted]"],
    ["db_pass=Zx8kQ2mN5pL9wR3tY6aB1cD4", "db_pass=[redacted]"],
    ["clone https://bob:s3cretpass@git.example.com/r.git now", "clone [redacted] now"],
  ])("%j → %j", (prompt, title) => {
    expect(titleFromPrompt(prompt)).toBe(title);
  });

  it.each([
    "fix tests/integration/db/retry.test.ts and lib/db/client.ts",
    "bump to v1.2.3-beta on 2026-12-07T10:00",
    "why does components/chat/chat-panel.tsx re-render?",
    "rename getUserById to findUserByIdentifier everywhere",
    "the password is hunter2",
    "explain https://github.com/earendil-works/pi",
  ])("%j stays as it is", (prompt) => {
    expect(titleFromPrompt(prompt)).toBe(prompt);
  });

  it("collapses whitespace and keeps 80 characters", () => {
    expect(titleFromPrompt(`  one\n\ttwo   ${"x".repeat(100)}`)).toBe(`one two ${"x".repeat(72)}`);
  });
});
