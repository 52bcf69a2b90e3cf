/**
 * Whether a value found under a secret-named key is a secret (docs/sharing.md, "Redaction"). The name-based rules
 * of `redact.ts` (`SecretAssignment`, `SecretKeyValue`, `YamlSecretValue`) find a value because of the name before
 * it; in source code such a name is often an ordinary variable (`key = lambda x: …`, `token = next(it)`,
 * `sorted(rows, key="name")`), and redacting it breaks the code. So the value itself decides: an expression is never
 * a secret; in a code file (known by its extension) only a quoted literal with the shape or entropy of a credential
 * is; in a config file and in free text (messages, tool output, unknown files) any literal is.
 */

import { isPlaceholder, looksLikeCredential } from "@/lib/text/credential-shape";

/** How a string's content is read: source code, a config file, or anything else (messages, logs, prose). */
export type TextKind = "code" | "config" | "text";

/**
 * Extensions of source code: a secret-named variable there holds an expression unless a literal says otherwise.
 * Shell scripts are not among them: a shell assignment's bare word is a literal (`export DB_PASS=s3cret`).
 */
const CODE_EXTENSIONS = new Set(
  (
    "py pyi pyx js mjs cjs jsx ts mts cts tsx go rs rb java kt kts scala swift c h cc cpp cxx hpp hh cs fs php pl pm " +
    "lua r jl dart ex exs erl hs ml mli clj cljs groovy vue svelte sql m mm zig nim v d"
  ).split(" "),
);

/** Config files (by extension or whole name): a secret-named key's literal value is a secret whatever its shape. */
const CONFIG_EXTENSIONS = new Set(
  "json jsonc json5 yaml yml toml ini cfg conf properties env xml plist tfvars hcl npmrc pypirc netrc pgpass".split(
    " ",
  ),
);
const CONFIG_NAMES = new Set([
  ".npmrc",
  ".pypirc",
  ".netrc",
  "_netrc",
  ".pgpass",
  ".git-credentials",
  ".htpasswd",
  "credentials",
  "config",
]);

/** The kind of text at `filePath` (project-relative); no path (a message, a tool's output) is `text`. */
export function textKindOf(filePath: string | undefined): TextKind {
  if (filePath === undefined) return "text";
  const name = filePath.slice(filePath.lastIndexOf("/") + 1).toLowerCase();
  if (CONFIG_NAMES.has(name) || name.startsWith(".env")) return "config";
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return "text";
  const ext = name.slice(dot + 1);
  if (CODE_EXTENSIONS.has(ext)) return "code";
  if (CONFIG_EXTENSIONS.has(ext)) return "config";
  return "text";
}

/** Words that start an expression, not a secret, in the languages a project holds. */
const EXPRESSION_START =
  /^(?:lambda|None|True|False|null|nil|undefined|true|false|function|new|await|async|yield|not|self|this|def|fn|func|typeof|sizeof|static|const|let|var|return)\b/;

/** A name or a chain of them (`os.environ`, `input.value`, `cfg.api.key`): a reference to a value, not one. */
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * Whether an unquoted value reads as an expression of code, not a literal: a keyword, a call, an index, a member
 * chain, a shell variable (`$TOKEN`, `${TOKEN}`), or a number of at most 7 digits (a count, a port, a limit).
 */
export function isExpression(value: string): boolean {
  return (
    EXPRESSION_START.test(value) ||
    /[()[\]{}]/.test(value) ||
    DOTTED_NAME.test(value) ||
    /^\$[A-Za-z_{]/.test(value) ||
    /^\d{1,7}$/.test(value)
  );
}

/**
 * Whether a value found by a name-based rule is to be redacted. `value`: the matched text (without quotes);
 * `quoted`: whether a quote stands right before it; `kind`: where it was found ({@link textKindOf}). In code, a
 * quoted literal or (for the rules that read comments and strings: headers, flags, URLs) any literal must look like a
 * credential; elsewhere any literal that is not an expression or a placeholder is redacted.
 */
export function isSecretValue(
  value: string,
  quoted: boolean,
  kind: TextKind,
  inCode: "quoted" | "any" = "quoted",
): boolean {
  const v = value.trim();
  if ((!quoted && isExpression(v)) || isPlaceholder(v)) return false;
  if (kind !== "code") return true;
  return (quoted || inCode === "any") && looksLikeCredential(v);
}
