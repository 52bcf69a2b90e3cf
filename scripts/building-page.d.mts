// Types of scripts/building-page.mjs (the "Strata is building…" placeholder npm start serves during next build).
export declare const RETRY_AFTER_SECONDS: number;
export declare function allowedHostNames(env: { HOST?: string; STRATA_ALLOWED_HOSTS?: string }): Set<string>;
export declare function buildingText(reason: string): string;
export declare function buildingApiMessage(reason: string): string;
export declare function buildingHtml(reason: string): string;
export declare function startBuildingPage(options: {
  port: number;
  host: string;
  reason: string;
  env?: Record<string, string | undefined>;
}): Promise<{ port: number; close: () => Promise<void> }>;
