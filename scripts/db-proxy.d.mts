import type { IncomingMessage } from "node:http";

export interface DbProxy {
  /** The port it listens on. */
  port: number;
  /** "host:port" it listens on (safe to log). */
  address: string;
  /** The per-start secret: 43 base64url characters (256 random bits). */
  secret: string;
  /** "host:port/secret": the value for STRATA_DB_PROXY (keep it out of logs). */
  endpoint: string;
  close(): Promise<void>;
}

export function startDbProxy(options: { target: string; port?: number; host?: string }): Promise<DbProxy>;
export function checkUpgrade(
  req: IncomingMessage,
  expected: { secret: string; target: string },
): { status: number; reason: string; text: string } | undefined;
export function driverProxyAddress(endpoint: string): string;
