/**
 * pi's built-in coding tools on Strata's VFS. Mirrors pi's `core/tools/index.ts` factories.
 */

import { type BashToolOptions, createBashTool } from "./bash";
import { createEditTool } from "./edit";
import { createFindTool } from "./find";
import { createGrepTool } from "./grep";
import { createLsTool } from "./ls";
import { createReadTool } from "./read";
import type { AgentTool, ToolContext } from "./types";
import { createWriteTool } from "./write";

export { createBashTool } from "./bash";
export { createEditTool } from "./edit";
export { createFindTool } from "./find";
export { createGrepTool } from "./grep";
export { createLsTool } from "./ls";
export { createReadTool } from "./read";
export * from "./types";
export { createWriteTool } from "./write";

/** pi's tool names. */
export type ToolName = "read" | "bash" | "edit" | "write" | "grep" | "find" | "ls";

export interface CodingToolsOptions extends ToolContext {
  bash?: BashToolOptions;
}

/**
 * pi's default coding tools, in pi's order: read, bash, edit, write (`createCodingTools`).
 * @param options `{ fs, cwd, projectRoot }` (absolute workspace paths) plus optional bash options.
 */
export function createCodingTools(options: CodingToolsOptions): AgentTool[] {
  return [
    createReadTool(options),
    createBashTool(options, options.bash),
    createEditTool(options),
    createWriteTool(options),
  ];
}

/** pi's read-only tools, in pi's order: read, grep, find, ls (`createReadOnlyTools`). */
export function createReadOnlyTools(options: ToolContext): AgentTool[] {
  return [createReadTool(options), createGrepTool(options), createFindTool(options), createLsTool(options)];
}

/** All seven tools keyed by name (pi's `createAllTools`, without powershell/codemode). */
export function createAllTools(options: CodingToolsOptions): Record<ToolName, AgentTool> {
  return {
    read: createReadTool(options),
    bash: createBashTool(options, options.bash),
    edit: createEditTool(options),
    write: createWriteTool(options),
    grep: createGrepTool(options),
    find: createFindTool(options),
    ls: createLsTool(options),
  };
}
