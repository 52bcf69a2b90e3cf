// `strata preview`: the context of one prompt (system prompt, sections, agent / LLM / transformed messages and the
// provider payload), built by the live pipeline and stopped before the network. The host directory becomes an
// in-memory workspace at /workspace; no database, no API key. See docs/cli.md.
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import ignore from "ignore";
import { remoteFetch, remoteTarget } from "../lib/remote.mjs";
import { CliError, write } from "../lib/runtime.mjs";

const LIB = "lib/cli/preview.ts";

/** Directories never read (git metadata, dependencies). */
const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);
/** Larger files are left out of the workspace (reported on stderr). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** The whole workspace must stay below these. */
export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
export const MAX_FILES = 50_000;

export const usage = `Usage:
  strata preview [--dir <hostdir>] [--cwd <vfs path>] [--agent-dir <hostdir>]
                 [--session <file.jsonl> [--leaf <entryId>]] [--model <provider/id>]
                 [--trust | --no-trust] [--tools <read,bash,...|none>] [--thinking <level>]
                 --text <input | -> [--pretty]
      Build the context of one prompt exactly as a run would send it, without sending it, and print
      one JSON object: model, systemPrompt, sections, systemPatch, agentMessages, llmMessages,
      transformedMessages, payload {url, body}, diagnostics. The host directory (default ".",
      .gitignore respected) is the workspace at /workspace; --cwd is a VFS path (default /workspace,
      relative paths are under it). --text - reads the input from stdin. No API key or database is used.
  strata --server <url> --token <token> preview --session-id <id> [--leaf <entryId>] [--model …]
                 [--tools …] [--thinking …] --text <input | -> [--pretty]
      The same JSON for a session stored on that server: its entries, its project's files, your agent dir
      and your trust decision (POST /api/sessions/:id/preview). Changes nothing on the server.`;

/** Whether `rel` is ignored by the stacked .gitignore matchers (deeper files win, `!` re-includes). */
function gitIgnored(matchers, rel, isDir) {
  let ignored = false;
  for (const { base, ig } of matchers) {
    if (base !== "" && !rel.startsWith(`${base}/`)) continue;
    const local = base === "" ? rel : rel.slice(base.length + 1);
    const result = ig.test(isDir ? `${local}/` : local);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/**
 * Read a host directory as `HostFile`s (paths relative to it, sorted walk): regular files and symlinks;
 * `.git` and `node_modules` skipped; with `gitignore`, each directory's `.gitignore` applies below it, except
 * to the paths pi reads regardless (`keep(rel)`). Files over MAX_FILE_BYTES are skipped and listed.
 */
export async function readHostTree(root, { gitignore, keep }) {
  const files = [];
  const skipped = [];
  let total = 0;
  const walk = async (abs, rel, matchers) => {
    let dirents;
    try {
      dirents = await fs.readdir(abs, { withFileTypes: true });
    } catch (error) {
      throw new CliError(`Cannot read directory ${abs}: ${error.message}`);
    }
    let here = matchers;
    if (gitignore) {
      const text = await fs.readFile(path.join(abs, ".gitignore"), "utf8").catch(() => undefined);
      if (text !== undefined) here = [...matchers, { base: rel, ig: ignore().add(text) }];
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of dirents) {
      if (ALWAYS_SKIPPED.has(d.name)) continue;
      const childRel = rel === "" ? d.name : `${rel}/${d.name}`;
      const childAbs = path.join(abs, d.name);
      const isDir = d.isDirectory();
      if (gitignore && !keep(childRel) && gitIgnored(here, childRel, isDir)) continue;
      if (d.isSymbolicLink()) {
        files.push({ path: childRel, kind: "symlink", data: await fs.readlink(childAbs) });
      } else if (isDir) {
        await walk(childAbs, childRel, here);
      } else if (d.isFile()) {
        const stat = await fs.stat(childAbs);
        if (stat.size > MAX_FILE_BYTES) {
          skipped.push({ path: childRel, size: stat.size });
          continue;
        }
        total += stat.size;
        if (files.length >= MAX_FILES || total > MAX_TOTAL_BYTES)
          throw new CliError(
            `${root} is too large for a preview (limits: ${MAX_FILES} files, ${MAX_TOTAL_BYTES / 1024 / 1024} MiB); point --dir at a smaller directory or ignore more in .gitignore`,
          );
        let data;
        try {
          data = await fs.readFile(childAbs);
        } catch (error) {
          throw new CliError(`Cannot read ${childAbs}: ${error.message}`);
        }
        files.push({
          path: childRel,
          kind: "file",
          data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
          mode: stat.mode & 0o111 ? 0o100755 : 0o100644,
          mtimeMs: Math.trunc(stat.mtimeMs),
        });
      }
    }
  };
  await walk(root, "", []);
  return { files, skipped };
}

async function directory(flag, dir) {
  const stat = await fs.stat(dir).catch((error) => {
    throw new CliError(`Cannot read ${flag} ${dir}: ${error.message}`);
  });
  if (!stat.isDirectory()) throw new CliError(`${flag} ${dir} is not a directory`);
  return path.resolve(dir);
}

/** Everything on `stdin`, as UTF-8. */
async function readStdin(stdin) {
  const chunks = [];
  for await (const chunk of stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** The options of `strata preview`; every `string` one takes exactly one value, given at most once. */
const OPTIONS = {
  dir: { type: "string" },
  cwd: { type: "string" },
  "agent-dir": { type: "string" },
  session: { type: "string" },
  "session-id": { type: "string" },
  leaf: { type: "string" },
  model: { type: "string" },
  trust: { type: "boolean" },
  "no-trust": { type: "boolean" },
  tools: { type: "string" },
  thinking: { type: "string" },
  text: { type: "string" },
  pretty: { type: "boolean" },
};

/** A usage error: `strata: <message>`, the usage, exit 2. */
function usageError(message) {
  return new CliError(`${message}\n\n${usage}`, 2);
}

/**
 * Parse the arguments; every problem is a usage error (exit 2): an unknown option, a value missing (`--text`
 * at the end, or followed by another option), a value option given twice (`--text a --text b`), an empty
 * value of any value option but `--text` (`--cwd ''`: a forgotten shell variable, not the default), a
 * `--tools` list without a tool name (`--tools ''`, `--tools ,`; no tools is `--tools none`).
 */
export function parseOptions(args) {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, tokens: true, options: OPTIONS });
  } catch (error) {
    if (typeof error?.code === "string" && error.code.startsWith("ERR_PARSE_ARGS_"))
      throw usageError(error.message);
    throw error;
  }
  const seen = new Set();
  for (const token of parsed.tokens) {
    if (token.kind !== "option" || OPTIONS[token.name]?.type !== "string") continue;
    if (seen.has(token.name)) throw usageError(`--${token.name} is given more than once`);
    seen.add(token.name);
    if (token.name !== "text" && token.name !== "tools" && token.value.trim() === "")
      throw usageError(`--${token.name} needs a non-empty value`);
  }
  const tools = parsed.values.tools;
  if (tools?.split(",").every((t) => t.trim().replace(/^[+-]/, "").trim() === ""))
    throw usageError(
      `--tools needs tool names (read,bash,edit,write,grep,find,ls, +name / -name against the defaults) or none; got '${tools}'`,
    );
  return { values: parsed.values, positionals: parsed.positionals };
}

/** `preview --session-id`: the server builds the preview of its stored session. */
async function remotePreview(values, ctx) {
  const target = remoteTarget(ctx.env);
  if (!target)
    throw usageError(
      "--session-id needs a server: --server <url> --token <token> (or STRATA_SERVER, STRATA_TOKEN)",
    );
  for (const local of ["dir", "cwd", "agent-dir", "session", "trust", "no-trust"])
    if (values[local] !== undefined)
      throw usageError(
        `--${local} does not apply with --session-id (the server uses the session's own files and trust)`,
      );
  const text = values.text === "-" ? (await readStdin(ctx.stdin)).replace(/\r?\n$/, "") : values.text;
  const response = await remoteFetch(
    target,
    `/api/sessions/${encodeURIComponent(values["session-id"])}/preview`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        text,
        ...(values.leaf !== undefined ? { leafId: values.leaf } : {}),
        ...(values.model !== undefined ? { model: values.model } : {}),
        ...(values.tools !== undefined ? { tools: values.tools } : {}),
        ...(values.thinking !== undefined ? { thinkingLevel: values.thinking } : {}),
      }),
    },
  );
  const preview = await response.json();
  await write(ctx.stdout, `${JSON.stringify(preview, null, values.pretty ? 2 : undefined)}\n`);
}

/** The errors of lib/cli/preview.ts that are the user's to fix: printed as they are (exit 1). */
function isUserError(lib, error) {
  return (
    error instanceof lib.PreviewCommandError ||
    error instanceof lib.ContextPreviewError ||
    error instanceof lib.InvalidSessionFileError ||
    error?.name === "ModelConfigError"
  );
}

/** `preview` on the host: the directory as the workspace, an optional session file; no database, no key. */
async function localPreview(values, ctx) {
  // stdin: one trailing line break (as `echo` adds) is not part of the input.
  const text = values.text === "-" ? (await readStdin(ctx.stdin)).replace(/\r?\n$/, "") : values.text;
  let session;
  if (values.session !== undefined) {
    try {
      session = { text: await fs.readFile(values.session, "utf8"), path: values.session };
    } catch (error) {
      throw new CliError(`Cannot read ${values.session}: ${error.message}`);
    }
  }
  const lib = await ctx.loadModule(LIB);
  const dir = await directory("--dir", values.dir ?? ".");
  const workspace = await readHostTree(dir, { gitignore: true, keep: lib.isPiResourcePath });
  const agent =
    values["agent-dir"] === undefined
      ? undefined
      : await readHostTree(await directory("--agent-dir", values["agent-dir"]), {
          gitignore: false,
          keep: () => true,
        });
  for (const s of [...workspace.skipped, ...(agent?.skipped ?? [])])
    await write(ctx.stderr, `strata: skipped ${s.path} (${s.size} bytes, over ${MAX_FILE_BYTES})\n`);

  let result;
  try {
    result = await lib.runPreview({
      workspace: workspace.files,
      ...(agent ? { agentDir: agent.files } : {}),
      ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
      ...(session ? { session } : {}),
      ...(values.leaf !== undefined ? { leaf: values.leaf } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values.trust ? { trust: true } : values["no-trust"] ? { trust: false } : {}),
      ...(values.tools !== undefined ? { tools: values.tools } : {}),
      ...(values.thinking !== undefined ? { thinking: values.thinking } : {}),
      text,
      env: ctx.env,
    });
  } catch (error) {
    if (isUserError(lib, error)) throw new CliError(error.message);
    throw error;
  }
  for (const d of result.warnings)
    await write(ctx.stderr, `${values.session}:${d.line}: ${d.kind}: ${d.message}\n`);
  await write(ctx.stdout, `${JSON.stringify(result.preview, null, values.pretty ? 2 : undefined)}\n`);
}

/**
 * Run `strata preview <args…>` with `ctx` (bin/lib/main.mjs `CliContext`: streams, environment, module loader):
 * one JSON object on `ctx.stdout`, diagnostics on `ctx.stderr`.
 * @throws CliError: a usage error (exit 2, with the usage), or a failure (exit 1) with its message
 */
export async function run(args, ctx) {
  if (args[0] === "help" || args.includes("--help") || args.includes("-h")) {
    await write(ctx.stdout, `${usage}\n`);
    return;
  }
  const { values, positionals } = parseOptions(args);
  if (positionals.length > 0) throw usageError(`Unexpected argument: ${positionals[0]}`);
  if (values.trust && values["no-trust"]) throw usageError("--trust and --no-trust exclude each other");
  if (values.text === undefined) throw usageError("preview needs --text (or --text - for stdin)");
  if (values.leaf !== undefined && values.session === undefined && values["session-id"] === undefined)
    throw usageError("--leaf needs --session or --session-id");
  if (values["session-id"] !== undefined) return remotePreview(values, ctx);
  return localPreview(values, ctx);
}
