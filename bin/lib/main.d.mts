/** What a command runs with (bin/lib/main.mjs). */
export interface CliContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(raw: boolean): void };
  /** The command's environment (a copy when passed in). */
  env: Record<string, string | undefined>;
  /** Loads a TypeScript module of the repository by its path from the root (default: tsx's `tsImport`). */
  // biome-ignore lint/suspicious/noExplicitAny: the loaded module's shape is the command's business
  loadModule(relativePath: string): Promise<any>;
}
export function cliContext(io?: Partial<CliContext>): CliContext;
export function runCli(argv: string[], io?: Partial<CliContext>): Promise<number>;
