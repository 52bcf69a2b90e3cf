// Apply db/migrations through the same Neon driver the app uses (Node side: `ws` for WebSocket).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { migrate } from "drizzle-orm/neon-serverless/migrator";
import ws from "ws";
import { driverProxyAddress } from "./db-proxy.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Configure the Neon driver for Node and, when `proxy` (the proxy's endpoint "host:port/secret", as in
 * STRATA_DB_PROXY) is given, the local proxy. Throws when `proxy` carries no secret.
 */
export function configureNeonForNode(proxy) {
  neonConfig.webSocketConstructor = ws;
  if (proxy) {
    const address = driverProxyAddress(proxy);
    neonConfig.wsProxy = () => address;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
}

/** Run pending migrations against `url` (through the proxy endpoint `proxy`, if given). Returns the elapsed ms. */
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
