import { SHELL_COMMAND_NAMES, SHELL_RUNTIME_COMMAND_NAMES } from "@/lib/vfs/shell-command-names";

/** The composer's hint while the text is a `!command`: what the simulated shell can and cannot run. */
export const SHELL_HINT =
  "Simulated shell: ls, grep, git, node, python3, sqlite3… (hover for all), no npm, pip or network · Enter to run the command · Shift+Enter for a new line";

/**
 * The hint's tooltip: every command the shell has (lib/vfs/shell-command-names.ts), the runtimes' commands (the
 * execution service's shell: QuickJS, CPython on WebAssembly, sql.js) and what it lacks.
 */
export const SHELL_HINT_TITLE = `The project shell is simulated (just-bash on the project files). Commands: ${SHELL_COMMAND_NAMES.join(" ")}. Runtimes (in the execution service): ${SHELL_RUNTIME_COMMAND_NAMES.join(" ")} (JavaScript on QuickJS, Python 3.13 standard library, SQLite; no npm or pip packages, no network). Builtins: cd, export, source, test and more (run !help).`;
