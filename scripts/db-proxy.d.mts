export function startDbProxy(options: { port?: number; host?: string; allow: string[] }): Promise<{
  port: number;
  address: string;
  close(): Promise<void>;
}>;
