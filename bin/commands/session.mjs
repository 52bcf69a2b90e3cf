// `strata session import <file.jsonl> --project <id>` and `strata session export <sessionId> [-o file]`.
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { remoteFetch, remoteTarget } from "../lib/remote.mjs";
import { CliError, withDatabase, write } from "../lib/runtime.mjs";

const LIB = "lib/cli/session-commands.ts";

export const usage = `Usage:
  strata session import <file.jsonl> --project <projectId> [--json]
      Import a pi session file as a new session of the project. Prints the new session id
      (or, with --json, {"session", "diagnostics"}) on stdout and parse diagnostics on stderr.
  strata session export <sessionId> [-o <file or directory>]
      Write the session as a pi JSONL file: to stdout, to <file>, or into <directory> under pi's
      default name (<timestamp>_<id>.jsonl).`;

async function importCommand(args, ctx) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { project: { type: "string", short: "p" }, json: { type: "boolean" } },
  });
  const [file, ...rest] = positionals;
  if (!file || rest.length > 0 || !values.project)
    throw new CliError(`session import needs a file and --project\n\n${usage}`, 2);
  let text;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${error.message}`);
  }
  const target = remoteTarget(ctx.env);
  const { session, diagnostics } = target
    ? await remoteImport(target, values.project, file, text)
    : await withDatabase(ctx, LIB, async (lib) => {
        try {
          return await lib.importSession({ projectId: values.project, text, path: file });
        } catch (error) {
          if (error instanceof lib.CommandError || error instanceof lib.InvalidSessionFileError)
            throw new CliError(error.message);
          throw error;
        }
      });
  for (const d of diagnostics) await write(ctx.stderr, `${file}:${d.line}: ${d.kind}: ${d.message}\n`);
  await write(
    ctx.stderr,
    `Imported ${file} as session ${session.id}${session.title ? ` (${session.title})` : ""}` +
      `${diagnostics.length > 0 ? ` with ${diagnostics.length} diagnostic${diagnostics.length === 1 ? "" : "s"}` : ""}\n`,
  );
  await write(ctx.stdout, values.json ? `${JSON.stringify({ session, diagnostics })}\n` : `${session.id}\n`);
}

async function exportCommand(args, ctx) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { output: { type: "string", short: "o" } },
  });
  const [sessionId, ...rest] = positionals;
  if (!sessionId || rest.length > 0) throw new CliError(`session export needs a session id\n\n${usage}`, 2);
  const server = remoteTarget(ctx.env);
  const { fileName, text } = server
    ? await remoteExport(server, sessionId)
    : await withDatabase(ctx, LIB, async (lib) => {
        try {
          return await lib.exportSession(sessionId);
        } catch (error) {
          if (error instanceof lib.CommandError) throw new CliError(error.message);
          throw error;
        }
      });
  if (values.output === undefined || values.output === "-") {
    await write(ctx.stdout, text);
    return;
  }
  let target = values.output;
  const isDir = target.endsWith("/") || (await fs.stat(target).catch(() => null))?.isDirectory();
  if (isDir) target = path.join(target, fileName);
  try {
    // A directory named with a trailing "/" is created when missing, as docs/cli.md says.
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, text);
  } catch (error) {
    throw new CliError(`Cannot write ${target}: ${error.code ?? error.message}`);
  }
  await write(ctx.stderr, `Wrote ${target}\n`);
}

/** Largest file sent in one request (the server's limit, 8 MiB); larger ones go in parts through the uploads API. */
const ONE_REQUEST_BYTES = 8 * 1024 * 1024;
const PART_BYTES = 4 * 1024 * 1024;

/** `session import` against a server (`--server`): one request, or the uploads API for a larger file. */
async function remoteImport(target, projectId, file, text) {
  const project = encodeURIComponent(projectId);
  const name = path.basename(file);
  const bytes = new TextEncoder().encode(text);
  let response;
  if (bytes.length <= ONE_REQUEST_BYTES) {
    response = await remoteFetch(
      target,
      `/api/projects/${project}/sessions/import?name=${encodeURIComponent(name)}`,
      {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body: bytes,
      },
    );
  } else {
    const started = await remoteFetch(target, `/api/projects/${project}/sessions/import/uploads`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name }),
    });
    const { upload } = await started.json();
    const base = `/api/projects/${project}/sessions/import/uploads/${encodeURIComponent(upload.id)}`;
    let parts = 0;
    while (parts * PART_BYTES < bytes.length) {
      await remoteFetch(target, `${base}/parts/${parts}`, {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: bytes.subarray(parts * PART_BYTES, (parts + 1) * PART_BYTES),
      });
      parts += 1;
    }
    response = await remoteFetch(target, base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ parts, bytes: bytes.length }),
    });
  }
  const body = await response.json();
  return { session: body.session, diagnostics: body.diagnostics ?? [] };
}

/** `session export` against a server: the file and the name its Content-Disposition gives. */
async function remoteExport(target, sessionId) {
  const response = await remoteFetch(target, `/api/sessions/${encodeURIComponent(sessionId)}/export`);
  const disposition = response.headers.get("content-disposition") ?? "";
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  const plain = /filename="([^"]+)"/i.exec(disposition);
  const fileName = star ? decodeURIComponent(star[1]) : (plain?.[1] ?? `${sessionId}.jsonl`);
  return { fileName: path.basename(fileName), text: await response.text() };
}

/**
 * Run `strata session <args…>` with `ctx` (bin/lib/main.mjs `CliContext`: streams, environment, module loader).
 * @throws CliError: a usage error (exit 2), or a failure (exit 1) with its one-line message
 */
export async function run(args, ctx) {
  const [sub, ...rest] = args;
  if (sub === "import") return importCommand(rest, ctx);
  if (sub === "export") return exportCommand(rest, ctx);
  if (sub === undefined || sub === "help" || sub === "--help" || sub === "-h") {
    await write(ctx.stdout, `${usage}\n`);
    return;
  }
  throw new CliError(`Unknown session command: ${sub}\n\n${usage}`, 2);
}
