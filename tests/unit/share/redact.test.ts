/** lib/share/redact.ts: each rule, the AWS range quirk, batching's range mapping, owner strings, no false positives. */
import { describe, expect, it } from "vitest";
import { applyHits, redactTexts } from "@/lib/share/redact";

const AWS_SECRET = "Zt3q8PLm0XkV9wR2yN5bC7dF1gH4jK6lM8nP0qS2";
const PEM_BODY =
  "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW";

const one = async (text: string, filePath?: string) => (await redactTexts([{ text, filePath }]))[0];
const kinds = (r: { findings: { rule: string; kind: string; line: number }[] }) =>
  r.findings.map((f) => `${f.rule.replace("@secretlint/secretlint-rule-", "")}/${f.kind}@${f.line}`);

describe("redactTexts", () => {
  it("masks the whole AWS secret key, not only the range secretlint reports (which leaves its tail)", async () => {
    const r = await one(`x = 1\nAWS_SECRET_ACCESS_KEY=${AWS_SECRET}\nagain: ${AWS_SECRET}\n`);
    expect(r.text).toBe("x = 1\n[redacted:AWSSecretAccessKey]\nagain: [redacted:AWSSecretAccessKey]\n");
    expect(r.text).not.toContain(AWS_SECRET.slice(-20));
    expect(kinds(r)).toEqual(["aws/AWSSecretAccessKey@2", "aws/AWSSecretAccessKey@3"]);
    expect(r.excerpts).toEqual(["[redacted:AWSSecretAccessKey]", "again: [redacted:AWSSecretAccessKey]"]);
  });

  it("redacts a non-example access key id but not AWS's documentation example", async () => {
    const r = await one("id AKIAQ4KZ7N3XW2PL5RTY and AKIAIOSFODNN7EXAMPLE");
    expect(r.text).toBe("id [redacted:AWSAccessKeyID] and AKIAIOSFODNN7EXAMPLE");
  });

  it("applies each Strata pattern and the preset's rules", async () => {
    const jwt =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    const r = await one(
      [
        "key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
        `bearer ${jwt}`,
        "DB_PASSWORD=hunter2hunter2",
        'aws_secret_access_key = "short-but-secret"',
        "postgres://admin:s3cretPassw0rd@db.example.com:5432/app",
        "see https://user:pa55word@example.com/x",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`,
      ].join("\n"),
    );
    expect(r.text).toBe(
      [
        "key [redacted:SecretKeySk]",
        "bearer [redacted:JWT]",
        "DB_PASSWORD=[redacted:SecretAssignment]",
        'aws_secret_access_key = "[redacted:SecretAssignment]"',
        "[redacted:PostgreSQLConnection]",
        "see [redacted:BasicAuth]/x",
        "[redacted:GITHUB_TOKEN]",
        "[redacted:PrivateKey]",
      ].join("\n"),
    );
    expect(kinds(r)).toEqual([
      "pattern/SecretKeySk@1",
      "pattern/JWT@2",
      "pattern/SecretAssignment@3",
      "pattern/SecretAssignment@4",
      "database-connection-string/PostgreSQLConnection@5",
      "basicauth/BasicAuth@6",
      "github/GITHUB_TOKEN@7",
      "privatekey/PrivateKey@8",
    ]);
  });

  it("redacts secret-named keys' values, URL credentials, secret query parameters, auth headers, Stripe and Google keys", async () => {
    const google = `AIza${"SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q"}`;
    expect(google.length).toBe(39);
    const lines = [
      '{ "password": "hunter2hunter2", "user": "bob" }',
      "api_key: 'abcd1234efgh5678'",
      'const ApiKey = "abcd 1234 efgh";',
      'config.clientSecret => "s3cr3t-value"',
      "password: hunter2 with spaces",
      "  - db_Password: tr0ub4dor&3",
      "redis://:s3cretpass@redis.example.com:6379/0",
      "git+ssh://deploy:pa55w0rd@git.example.com/repo.git",
      "GET https://api.example.com/x?access_token=abcdef123456&page=2",
      "https://api.example.com/x?a=1&token=zyx987wvu654",
      "https://api.example.com/x?api_key=k3y-v4lu3#top",
      "Authorization: Bearer abcdef1234567890xyz",
      'curl -H "authorization: Basic dXNlcjpwYXNzd29yZA=="',
      "X-Api-Key: 0123456789abcdef",
      "stripe sk_live_51HabcdefGHIJKLmnopQRSTuv",
      "rk_live_51HabcdefGHIJKLmnopQRSTuv and sk_test_51HabcdefGHIJKLmnopQRSTuv",
      `maps key=${google}`,
    ];
    const r = await one(lines.join("\n"));
    expect(r.text.split("\n")).toEqual([
      '{ "password": "[redacted:SecretKeyValue]", "user": "bob" }',
      "api_key: '[redacted:SecretKeyValue]'",
      'const ApiKey = "[redacted:SecretKeyValue]";',
      'config.clientSecret => "[redacted:SecretKeyValue]"',
      "password: [redacted:YamlSecretValue]",
      "  - db_Password: [redacted:YamlSecretValue]",
      "redis://:[redacted:UrlCredentials]@redis.example.com:6379/0",
      "git+ssh://deploy:[redacted:UrlCredentials]@git.example.com/repo.git",
      "GET https://api.example.com/x?access_token=[redacted:SecretQueryParam]&page=2",
      "https://api.example.com/x?a=1&token=[redacted:SecretQueryParam]",
      "https://api.example.com/x?api_key=[redacted:SecretQueryParam]#top",
      "Authorization: Bearer [redacted:AuthorizationHeader]",
      'curl -H "authorization: Basic [redacted:AuthorizationHeader]"',
      "X-Api-Key: [redacted:ApiKeyHeader]",
      "stripe [redacted:StripeKey]",
      "[redacted:StripeKey] and [redacted:StripeKey]",
      "maps key=[redacted:GoogleApiKey]",
    ]);
    expect(kinds(r)).toEqual([
      "pattern/SecretKeyValue@1",
      "pattern/SecretKeyValue@2",
      "pattern/SecretKeyValue@3",
      "pattern/SecretKeyValue@4",
      "pattern/YamlSecretValue@5",
      "pattern/YamlSecretValue@6",
      "pattern/UrlCredentials@7",
      "pattern/UrlCredentials@8",
      "pattern/SecretQueryParam@9",
      "pattern/SecretQueryParam@10",
      "pattern/SecretQueryParam@11",
      "pattern/AuthorizationHeader@12",
      "pattern/AuthorizationHeader@13",
      "pattern/ApiKeyHeader@14",
      "pattern/StripeKey@15",
      "pattern/StripeKey@16",
      "pattern/StripeKey@16",
      "pattern/GoogleApiKey@17",
    ]);
  });

  it("redacts a secret-named key's value inside escaped JSON (a log line, a tool's output), whole", async () => {
    const r = await one(
      'log: "{\\"password\\":\\"abc def\\",\\"user\\":\\"bob\\",\\"apiToken\\": \\"t0k\\"}"',
    );
    expect(r.text).toBe(
      'log: "{\\"password\\":\\"[redacted:SecretKeyValue]\\",\\"user\\":\\"bob\\",\\"apiToken\\": \\"[redacted:SecretKeyValue]\\"}"',
    );
    expect(kinds(r)).toEqual(["pattern/SecretKeyValue@1", "pattern/SecretKeyValue@1"]);
  });

  it("redacts secrets passed as command-line flags and curl's -u password", async () => {
    const r = await one(
      [
        "mysqladmin --password=hunter2 status",
        "gh auth login --token ghx_abcdef123",
        'vault login --API-KEY "k3y with" next',
        "curl -u bob:s3cr3t https://example.com",
        "curl --user=alice:pa55 https://example.com",
        "tool --token-file ./token.txt --password-stdin < pw",
      ].join("\n"),
    );
    expect(r.text.split("\n")).toEqual([
      "mysqladmin --password=[redacted:SecretCliFlag] status",
      "gh auth login --token [redacted:SecretCliFlag]",
      "vault login --API-KEY [redacted:SecretCliFlag] next",
      "curl -u bob:[redacted:SecretCliFlag] https://example.com",
      "curl --user=alice:[redacted:SecretCliFlag] https://example.com",
      "tool --token-file ./token.txt --password-stdin < pw",
    ]);
  });

  it("leaves code that only looks like a secret-named key alone", async () => {
    const text = [
      "interface Login {",
      "  password: string;",
      "  token: string | null;",
      "}",
      "const login = {",
      "  password: input.value,",
      "  apiKey: process.env.API_KEY,",
      "};",
      "if (token === '') return;",
      'const passwordHint = "remember the horse";',
      "https://example.com/search?q=token&page=2",
    ].join("\n");
    const r = await one(text);
    expect(r.text).toBe(text);
    expect(r.findings).toEqual([]);
  });

  it("redacts every value of a .env file and of .env.* files", async () => {
    expect((await one("A=1\n# note\nexport B = two words\n", "app/.env")).text).toBe(
      "A=[redacted:DotenvValue]\n# note\nexport B = [redacted:DotenvValue]\n",
    );
    expect((await one("URL=https://example.com\n", ".env.local")).text).toBe("URL=[redacted:DotenvValue]\n");
    expect((await one("URL=https://example.com\n", "config.env.txt")).text).toBe("URL=https://example.com\n");
  });

  it("redacts a cut-off private key block", async () => {
    expect((await one("start\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk")).text).toBe(
      "start\n[redacted:PrivateKeyBlock]",
    );
  });

  it("batches many strings into one lint and maps every range back exactly", async () => {
    const texts = Array.from({ length: 300 }, (_, i) =>
      i % 50 === 7
        ? `line one\nitem ${i} sk-proj-abcdefghijklmnopqrstuvwxyz${1000 + i} tail`
        : `plain text ${i}`,
    );
    const out = await redactTexts(texts.map((text) => ({ text })));
    out.forEach((r, i) => {
      expect(r.text).toBe(
        i % 50 === 7 ? `line one\nitem ${i} [redacted:SecretKeySk] tail` : `plain text ${i}`,
      );
      expect(r.findings).toEqual(
        i % 50 === 7 ? [{ rule: "@secretlint/secretlint-rule-pattern", kind: "SecretKeySk", line: 2 }] : [],
      );
    });
  });

  it("redacts the owner's strings literally and case-sensitively", async () => {
    const [r] = await redactTexts(
      [{ text: "Project Nightingale, project nightingale, Project Nightingale." }],
      ["Project Nightingale"],
    );
    expect(r.text).toBe("[redacted:owner], project nightingale, [redacted:owner].");
    expect(kinds(r)).toEqual(["owner/owner@1", "owner/owner@1"]);
  });

  it("leaves ordinary prose and code alone", async () => {
    const text = [
      "The key insight is that the token bucket refills every second.",
      "function getKey(map, key) { return map[key]; }",
      "const apiKey = process.env.OPENAI_API_KEY;",
      "const password = input.value; if (!password) return;",
      'export const SECRET_HEADER = "x-secret";',
      "if (API_KEY === undefined) throw new Error('missing');",
      "The risk-assessment of task-abcdefghijklmnopqrstuvwxyz passed; sha 3f786850e387550fdab836ed7e6dc881de23001b.",
      "Visit https://example.com/docs?page=2 for more.",
    ].join("\n");
    const r = await one(text);
    expect(r.text).toBe(text);
    expect(r.findings).toEqual([]);
  });
});

describe("applyHits", () => {
  it("merges overlapping ranges into one replacement named by the earliest", () => {
    const r = applyHits("abcdefghij", [
      { start: 2, end: 5, rule: "r1", kind: "K1" },
      { start: 4, end: 8, rule: "r2", kind: "K2" },
    ]);
    expect(r.text).toBe("ab[redacted:K1]ij");
    expect(r.findings).toEqual([{ rule: "r1", kind: "K1", line: 1 }]);
  });
});
