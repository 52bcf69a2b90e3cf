export interface ExecServiceProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The bearer token the service was started with (keep it out of logs). */
  token: string;
  /** `STRATA_EXEC_URL` and `STRATA_EXEC_TOKEN` for the app's environment. */
  env: { STRATA_EXEC_URL: string; STRATA_EXEC_TOKEN: string };
  /** The service process's id now (a restart changes it). */
  readonly pid: number | undefined;
  close(): Promise<void>;
}

/** `env` reduced to the variables the service may see (no provider key, no secret of the app). */
export function serviceEnv(env: NodeJS.ProcessEnv): Record<string, string>;

export function startExecService(options?: {
  env?: NodeJS.ProcessEnv;
  restart?: boolean;
  log?: (line: string) => void;
  output?: (chunk: Buffer, stream: "stdout" | "stderr") => void;
}): Promise<ExecServiceProcess>;
