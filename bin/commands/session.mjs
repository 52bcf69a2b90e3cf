// `strata session import <file.jsonl> --project <id>` and `strata session export <sessionId> [-o file]`.
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { CliError, withDatabase, write } from "../lib/runtime.mjs";

const LIB = "lib/cli/session-commands.ts";

export const usage = `Usage:
  strata session import <file.jsonl> --project <projectId> [--json]
      Import a pi session file as a new session of the project. Prints the new session id
      (or, with --json, {"session", "diagnostics"}) on stdout and parse diagnostics on stderr.
  strata session export <sessionId> [-o <file or directory>]
      Write the session as a pi JSONL file: to stdout, to <file>, or into <directory> under pi's
      default name (<timestamp>_<id>.jsonl).`;

async function importCommand(args) {
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
  const { session, diagnostics } = await withDatabase(LIB, async (lib) => {
    try {
      return await lib.importSession({ projectId: values.project, text, path: file });
    } catch (error) {
      if (error instanceof lib.CommandError || error instanceof lib.InvalidSessionFileError)
        throw new CliError(error.message);
      throw error;
    }
  });
  for (const d of diagnostics) await write(process.stderr, `${file}:${d.line}: ${d.kind}: ${d.message}\n`);
  await write(
    process.stderr,
    `Imported ${file} as session ${session.id}${session.title ? ` (${session.title})` : ""}` +
      `${diagnostics.length > 0 ? ` with ${diagnostics.length} diagnostic${diagnostics.length === 1 ? "" : "s"}` : ""}\n`,
  );
  await write(
    process.stdout,
    values.json ? `${JSON.stringify({ session, diagnostics })}\n` : `${session.id}\n`,
  );
}

async function exportCommand(args) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { output: { type: "string", short: "o" } },
  });
  const [sessionId, ...rest] = positionals;
  if (!sessionId || rest.length > 0) throw new CliError(`session export needs a session id\n\n${usage}`, 2);
  const { fileName, text } = await withDatabase(LIB, async (lib) => {
    try {
      return await lib.exportSession(sessionId);
    } catch (error) {
      if (error instanceof lib.CommandError) throw new CliError(error.message);
      throw error;
    }
  });
  if (values.output === undefined || values.output === "-") {
    await write(process.stdout, text);
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
  await write(process.stderr, `Wrote ${target}\n`);
}

/** Run `strata session <args…>`. */
export async function run(args) {
  const [sub, ...rest] = args;
  if (sub === "import") return importCommand(rest);
  if (sub === "export") return exportCommand(rest);
  if (sub === undefined || sub === "help" || sub === "--help" || sub === "-h") {
    await write(process.stdout, `${usage}\n`);
    return;
  }
  throw new CliError(`Unknown session command: ${sub}\n\n${usage}`, 2);
}
