/**
 * Share redaction on real source trees (issue: `key = lambda x: …` became `key = [redacted:SecretAssignment] x: …`):
 * sharing real open-source code with its files changes no byte — Strata's own product code, Python's standard library
 * (code that handles passwords, tokens and keys all day: smtplib, netrc, getpass, hmac, secrets, http, email, …) and
 * isomorphic-git — while every kind of secret seeded into files of those same languages is still redacted.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { redactTexts } from "@/lib/share/redact";

const ROOT = join(__dirname, "../../..");

/** Every file under `dir` whose name ends in one of `exts`, as `{ text, filePath }` (path relative to `base`). */
function tree(dir: string, exts: readonly string[], base = dir): { text: string; filePath: string }[] {
  const out: { text: string; filePath: string }[] = [];
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    if (name === "__pycache__" || name === "test" || name === "tests") continue;
    if (statSync(abs).isDirectory()) out.push(...tree(abs, exts, base));
    else if (exts.some((e) => name.endsWith(e)))
      out.push({ text: readFileSync(abs, "utf8"), filePath: relative(base, abs) });
  }
  return out;
}

/** The files among `files` the redaction changed, with what it found first (empty when nothing changed). */
async function changed(files: { text: string; filePath: string }[]): Promise<string[]> {
  const out = await redactTexts(files);
  return out.flatMap((r, i) =>
    r.text === files[i].text ? [] : [`${files[i].filePath}: ${r.findings[0]?.kind} ${r.excerpts[0]}`],
  );
}

const PYTHON = "/usr/lib/python3.11";
const PYTHON_MODULES = [
  "argparse.py",
  "base64.py",
  "configparser.py",
  "difflib.py",
  "ftplib.py",
  "functools.py",
  "getpass.py",
  "hashlib.py",
  "heapq.py",
  "hmac.py",
  "imaplib.py",
  "netrc.py",
  "poplib.py",
  "secrets.py",
  "smtplib.py",
  "ssl.py",
  "statistics.py",
];

describe("share redaction of real source trees", () => {
  it("changes no byte of Strata's own code (lib, app, components, bin, scripts, db)", async () => {
    const files = ["lib", "app", "components", "bin", "scripts", "db"].flatMap((d) =>
      tree(join(ROOT, d), [".ts", ".tsx", ".mjs", ".js"], ROOT),
    );
    expect(files.length).toBeGreaterThan(400);
    expect(await changed(files)).toEqual([]);
  });

  it("changes no byte of Python's standard library modules that handle passwords, tokens and keys", async () => {
    const files = [
      ...PYTHON_MODULES.map((m) => ({ text: readFileSync(join(PYTHON, m), "utf8"), filePath: m })),
      ...["email", "http", "json", "unittest", "urllib", "collections", "logging", "sqlite3"].flatMap((d) =>
        tree(join(PYTHON, d), [".py"], PYTHON),
      ),
    ];
    expect(files.length).toBeGreaterThan(80);
    // The shapes of the library, as the standard library writes them.
    const joined = files.map((f) => f.text).join("\n");
    expect(joined).toMatch(/\bkey=lambda\b/);
    expect(joined).toMatch(/^\s*token = /m);
    expect(await changed(files)).toEqual([]);
  });

  it("changes no byte of isomorphic-git (JavaScript handling tokens and passwords)", async () => {
    const files = [
      {
        text: readFileSync(join(ROOT, "node_modules/isomorphic-git/index.js"), "utf8"),
        filePath: "index.js",
      },
    ];
    expect(await changed(files)).toEqual([]);
  });

  it("changes no byte of the issue's lines in a Python file, and leaves them in a message too", async () => {
    const code = [
      "import itertools",
      "rows.sort(key = lambda x: x[1])",
      "key = lambda x: (x.name, x.size)",
      "best = sorted(items, key=lambda i: i.score)",
      "by_name = sorted(items, key='name')",
      "it = iter(tokens)",
      "token = next(it)",
      'password_hint = "your first pet"',
      "secret_key = settings.SECRET_KEY",
      "API_KEY = os.environ['API_KEY']",
      "SORT_KEY = None",
      "MAX_TOKEN = 4096",
      'token = "<eos>"',
      'api_key = ""',
      "",
    ].join("\n");
    const [file, message] = await redactTexts([{ text: code, filePath: "pkg/sorting.py" }, { text: code }]);
    expect(file.text).toBe(code);
    expect(file.findings).toEqual([]);
    expect(message.text).toBe(code);
    expect(message.findings).toEqual([]);
  });

  it("still redacts every seeded kind of secret in code, config and text files", async () => {
    const anthropic = `sk-ant-api03-${"Q".repeat(10)}${"a1B2c3D4e5".repeat(8)}AA`;
    const files = [
      {
        filePath: "app/settings.py",
        text: [
          'PASSWORD = "Tr0ub4dor&3x"',
          'api_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"',
          `ANTHROPIC = "${anthropic}"`,
          'DB_URL = "postgres://app:S3cretPw0rd@db.internal:5432/app"',
          'stripe.api_key = "sk_live_51HabcdefGHIJKLmnopQRSTuv"',
          'GITHUB = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"',
          "",
        ].join("\n"),
      },
      {
        filePath: "src/client.ts",
        text: 'const client = new Client({ apiKey: "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q" });\n',
      },
      { filePath: "config/db.yml", text: "production:\n  password: hunter2\n  token: abc123\n" },
      {
        filePath: ".docker/config.json",
        text: '{"auths":{"ghcr.io":{"auth":"dXNlcjpzM2NyM3QtcGFzcw=="}}}\n',
      },
      { filePath: ".pgpass", text: "db.internal:5432:app:app:S3cretPw0rd\n" },
      { filePath: "deploy.sh", text: "export DB_PASS=S3cretPw0rd\nBYPASS=1\n" },
      { filePath: ".env.production", text: "SECRET=anything at all\n" },
    ];
    const out = await redactTexts(files);
    expect(out.map((r) => r.text)).toEqual([
      [
        'PASSWORD = "[redacted:SecretAssignment]"',
        'api_key = "[redacted:SecretAssignment]"',
        'ANTHROPIC = "[redacted:ANTHROPIC_API_KEY]"',
        'DB_URL = "[redacted:PostgreSQLConnection]"',
        'stripe.api_key = "[redacted:SecretAssignment]"',
        'GITHUB = "[redacted:GITHUB_TOKEN]"',
        "",
      ].join("\n"),
      'const client = new Client({ apiKey: "[redacted:SecretKeyValue]" });\n',
      "production:\n  password: [redacted:YamlSecretValue]\n  token: [redacted:YamlSecretValue]\n",
      '{"auths":{"ghcr.io":{"auth":"[redacted:DockerAuth]"}}}\n',
      "db.internal:5432:app:app:[redacted:PgpassPassword]\n",
      "export DB_PASS=[redacted:SecretAssignment]\nBYPASS=1\n",
      "SECRET=[redacted:DotenvValue]\n",
    ]);
  });
});
