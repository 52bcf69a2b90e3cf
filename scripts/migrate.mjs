// Apply db/migrations through the same Neon driver the app uses (Node side: `ws` for WebSocket).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { migrate } from "drizzle-orm/neon-serverless/migrator";
import ws from "ws";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Configure the Neon driver for Node and, when `proxy` ("host:port") is given, the local proxy. */
export function configureNeonForNode(proxy) {
  neonConfig.webSocketConstructor = ws;
  if (proxy) {
    neonConfig.wsProxy = (host, port) => `${proxy}/v1?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
}

/** Run pending migrations against `url`. Returns the elapsed milliseconds. */
export async function runMigrations(url, proxy) {
  configureNeonForNode(proxy);
  const started = performance.now();
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    await migrate(drizzle({ client: pool }), { migrationsFolder: path.join(root, "db/migrations") });
  } finally {
    await pool.end();
  }
  return performance.now() - started;
}
