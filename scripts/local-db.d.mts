export function stateDir(root: string, env?: Record<string, string | undefined>): string;
export class LocalDbError extends Error {}
export function isAlive(pid: number): boolean;
export function shown(p: string): string;
export function acquirePgdataLock(dir: string): () => void;
export function openEmbeddedDatabase(
  dir: string,
): Promise<{ url: string; address: string; ms: number; close(): Promise<void> }>;
export interface ServedDatabase {
  url: string;
  /** `endpoint` is the STRATA_DB_PROXY value (holds the secret). */
  proxy?: { address: string; endpoint: string; secret: string; port: number; close(): Promise<void> };
  embedded: boolean;
  migrations: { applied: string[]; total: number; ms: number };
  close(): Promise<void>;
}
export function serveDatabase(options: {
  dir: string;
  databaseUrl?: string;
  publish?: boolean;
  log?: (msg: string) => void;
}): Promise<ServedDatabase>;
export interface ServerInfo {
  pid: number;
  startedAt: string;
  dataDir: string;
  url: string;
  proxy: string;
}
export function writeServerInfo(dir: string, info: { url: string; proxy: string; dataDir: string }): void;
export function removeServerInfo(dir: string): void;
export function readServerInfo(dir: string): ServerInfo | undefined;
export const SECRET_NAMES: readonly ["BETTER_AUTH_SECRET", "STRATA_SECRETS_KEY"];
export function ensureSecrets(dir: string): { BETTER_AUTH_SECRET: string; STRATA_SECRETS_KEY: string };
export function readSecrets(dir: string): Record<string, string> | undefined;
export const LOCAL_OWNER_EMAIL: string;
export const LOCAL_OWNER_NAME: string;
export function ensureLocalOwner(url: string, proxy?: string): Promise<{ userId: string; created: boolean }>;
