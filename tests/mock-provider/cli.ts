/**
 * Start the mock LLM provider from the command line: `tsx tests/mock-provider/cli.ts --port 4010`.
 * Prints the base URL and runs until SIGINT/SIGTERM. Script it through the `/__mock/` HTTP API.
 */
import { startMockProvider } from "./server";

function parsePort(argv: string[]): number {
  const index = argv.indexOf("--port");
  const raw =
    index >= 0 ? argv[index + 1] : argv.find((arg) => arg.startsWith("--port="))?.slice("--port=".length);
  if (raw === undefined) return 0;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${raw}`);
  return port;
}

const port = parsePort(process.argv.slice(2));
const mock = await startMockProvider({ port }).catch((error: NodeJS.ErrnoException) => {
  if (error.code !== "EADDRINUSE") throw error;
  console.error(
    `mock provider: port ${port} is already in use (another mock still running?). Stop it, or pick another port: --port ${port + 1} (and use that port in ANTHROPIC_BASE_URL).`,
  );
  process.exit(1);
});
console.log(mock.url);
const stop = () => {
  void mock.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
