export const PROGRESS_EVERY_MS: number;
export interface MachineSample {
  cpuSeconds?: number;
  load: number;
  cores: number;
}
export function machineNow(pid: number | undefined): MachineSample;
export function reportBuildProgress(
  log: (line: string) => void,
  everyMs?: number,
  sample?: () => MachineSample,
): () => void;
export function buildApp(
  root?: string,
  options?: {
    onSpawn?: (child: import("node:child_process").ChildProcess) => void;
    progress?: ((line: string) => void) | null;
  },
): Promise<{ ok: boolean; status: number | null; ms: number; stamp: string }>;
