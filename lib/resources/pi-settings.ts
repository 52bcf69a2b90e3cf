/**
 * pi's `settings.json` files (SettingsManager): the global `<agentDir>/settings.json` (Strata: `/.pi/agent/
 * settings.json` on the user's agent VFS) and the project's `<cwd>/.pi/settings.json`, which pi reads only for a
 * trusted project (pi's `resource-loader.ts`) and deep-merges over the global one (nested objects merge, other values replace).
 */
import type { FileSystem } from "@/lib/vfs/types";
import { childPath, type ResourceDiagnostic, readUtf8, stripBom, tryStat } from "./fs-util";

export type PiSettings = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** pi's merge of project settings over global ones: objects merge key by key, anything else replaces. */
export function mergeSettings(base: PiSettings, override: PiSettings): PiSettings {
  const out: PiSettings = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const prev = out[key];
    out[key] = isObject(prev) && isObject(value) ? mergeSettings(prev, value) : value;
  }
  return out;
}

/** The diagnostic of a settings file that is skipped: `Settings file skipped (<reason>); its settings do not apply until it is valid JSON` . */
function skipped(path: string, reason: string): ResourceDiagnostic {
  return {
    type: "warning",
    message: `Settings file skipped (${reason}); its settings do not apply until it is a valid JSON object`,
    path,
  };
}

async function readSettingsFile(
  fs: FileSystem,
  path: string,
  errors: ResourceDiagnostic[],
): Promise<PiSettings> {
  if ((await tryStat(fs, path))?.kind !== "file") return {};
  try {
    const parsed: unknown = JSON.parse(stripBom(await readUtf8(fs, path)));
    if (isObject(parsed)) return parsed;
    errors.push(skipped(path, "not a JSON object"));
  } catch (error) {
    errors.push(skipped(path, error instanceof Error ? error.message : String(error)));
  }
  return {};
}

/**
 * The settings in effect: global (`<agentDir>/settings.json` on `agentFs`) merged with the project's
 * (`<cwd>/.pi/settings.json` on `projectFs`, only when `projectTrusted`). A missing file counts as `{}`; an
 * unreadable or non-object file is skipped, as pi skips it, and reported in `errors` as a warning diagnostic
 * (`path`, `message`: `Settings file skipped (<reason>); …`) that the IDE's Context panel lists.
 */
export async function loadPiSettings(input: {
  agentFs: FileSystem;
  agentDir: string;
  projectFs: FileSystem;
  cwd: string;
  projectTrusted: boolean;
}): Promise<{ settings: PiSettings; errors: ResourceDiagnostic[] }> {
  const errors: ResourceDiagnostic[] = [];
  const global = await readSettingsFile(input.agentFs, childPath(input.agentDir, "settings.json"), errors);
  const project = input.projectTrusted
    ? await readSettingsFile(input.projectFs, childPath(childPath(input.cwd, ".pi"), "settings.json"), errors)
    : {};
  return { settings: mergeSettings(global, project), errors };
}
