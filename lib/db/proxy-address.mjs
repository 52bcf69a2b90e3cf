// The one reading of STRATA_DB_PROXY, shared by the app (lib/db/client.ts) and the Node scripts
// (scripts/migrate.mjs, scripts/db-proxy.mjs). Plain JavaScript so that `node scripts/…` imports it as is.

/**
 * The Neon driver's `wsProxy` address for a STRATA_DB_PROXY value ("host:port/secret" → "host:port/v1/secret").
 * @param {string} endpoint the proxy's endpoint as handed over by the process that started it
 * @returns {string}
 * @throws Error (naming the expected shape, never the value, which holds the secret) when `endpoint` has no secret.
 */
export function driverProxyAddress(endpoint) {
  const match = /^([^/\s]+)\/([A-Za-z0-9_-]{22,})$/.exec(String(endpoint ?? ""));
  if (!match) {
    throw new Error(
      "STRATA_DB_PROXY must be host:port/secret as handed over by the process that started the database proxy (npm start, the test helpers, the CLI); a bare host:port is not accepted.",
    );
  }
  return `${match[1]}/v1/${match[2]}`;
}

/**
 * Point one Neon client's own configuration (`client.neonConfig`) at the local proxy `endpoint`: plain `ws://`,
 * no pipelining, and the driver's host/port arguments unused (the proxy relays only to the database it was
 * started for). Never the driver's global `neonConfig`: another user of the driver in the same process cannot
 * redirect these connections, nor these theirs.
 * @param {{ wsProxy?: unknown, useSecureWebSocket?: boolean, pipelineTLS?: boolean, pipelineConnect?: unknown }} config
 * @param {string} endpoint
 * @throws Error as {@link driverProxyAddress}.
 */
export function applyDriverProxy(config, endpoint) {
  const address = driverProxyAddress(endpoint);
  config.wsProxy = () => address;
  config.useSecureWebSocket = false;
  config.pipelineTLS = false;
  config.pipelineConnect = false;
}
