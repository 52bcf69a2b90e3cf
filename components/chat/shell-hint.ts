import { SHELL_COMMAND_NAMES } from "@/lib/vfs/shell-command-names";

/** The composer's hint while the text is a `!command`: what the simulated shell can and cannot run. */
export const SHELL_HINT =
  "Simulated shell: ls, cat, grep, sed, jq… (hover for all), no npm, node or python · Enter to run the command · Shift+Enter for a new line";

/** The hint's tooltip: every command the shell has (lib/vfs/shell-command-names.ts). */
export const SHELL_HINT_TITLE = `The project shell is simulated (just-bash on the project files). Commands: ${SHELL_COMMAND_NAMES.join(" ")}. Builtins: cd, export, source, test and more (run !help).`;
