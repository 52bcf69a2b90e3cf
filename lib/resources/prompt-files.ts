/**
 * SYSTEM.md / APPEND_SYSTEM.md inputs (pi `resource-loader.ts`: `resolvePromptInput`,
 * `discoverSystemPromptFile`, `discoverAppendSystemPromptFile`) over the VFS, with Strata's team rules root
 * as one more discovery location between the project's `.pi/` and the agent dir.
 */
import { joinPosix, normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import type { ResourceFilesystem } from "./context-files";
import { childPath, type ResourceDiagnostic, readUtf8, statInWorkspace, stripBom, tryStat } from "./fs-util";

/** A prompt text and, when file-backed, the file it was read from. */
export interface PromptInput {
  text: string;
  /** File it was read from, when file-backed. */
  file?: { path: string; filesystem: ResourceFilesystem };
}

/**
 * pi `resolvePromptInput` on the VFS (pi's `resource-loader.ts`): `input` is a file path when such a file exists (relative
 * paths against `cwd`; content read, BOM stripped), otherwise literal text. A file that exists but cannot
 * be read adds `Could not read <description> file <path>: <error>` and the path itself is the text.
 */
export async function resolvePromptInput(
  fs: FileSystem,
  cwd: string,
  input: string | undefined,
  description: string,
  diagnostics: ResourceDiagnostic[],
  root?: string,
): Promise<PromptInput | undefined> {
  if (!input) return undefined;
  if (input.includes("\n")) return { text: input };
  const path = input.startsWith("/") ? normalizePosix(input) : joinPosix(cwd, input);
  const found = await statInWorkspace(fs, path, root);
  if (!found || "escape" in found || found.stat.kind !== "file") return { text: input };
  try {
    return { text: stripBom(await readUtf8(fs, found.real)), file: { path, filesystem: "project" } };
  } catch (error) {
    diagnostics.push({
      type: "warning",
      message: `Could not read ${description} file ${path}: ${String(error)}`,
      path,
    });
    return { text: input, file: { path, filesystem: "project" } };
  }
}

/**
 * Read a discovered prompt file (pi's `resource-loader.ts`): its BOM-stripped text, or — when it cannot be read — the
 * diagnostic `Could not read <description> file <path>: <error>` and the path itself as the text.
 */
export async function readDiscovered(
  fs: FileSystem,
  path: string,
  filesystem: ResourceFilesystem,
  description: string,
  diagnostics: ResourceDiagnostic[],
): Promise<PromptInput> {
  try {
    return { text: stripBom(await readUtf8(fs, path)), file: { path, filesystem } };
  } catch (error) {
    diagnostics.push({
      type: "warning",
      message: `Could not read ${description} file ${path}: ${String(error)}`,
      path,
    });
    return { text: path, file: { path, filesystem } };
  }
}

/** Where {@link discoverPromptFile} looks. */
export interface DiscoverPromptFileOptions {
  fs: FileSystem;
  cwd: string;
  agentFs?: FileSystem;
  agentDir?: string;
  /** Strata: a team's rules root (`teamRulesDir` on `teamFs`); its files need trust like `.pi/`'s. */
  teamFs?: FileSystem;
  teamRulesDir?: string;
  projectTrusted: boolean;
  root?: string;
}

/**
 * Discover SYSTEM.md or APPEND_SYSTEM.md (pi `discoverSystemPromptFile`, pi's `resource-loader.ts`): `<cwd>/.pi/<name>`
 * when the project is trusted and it exists, else (Strata) `<teamRulesDir>/<name>` on `teamFs` when the
 * project is trusted and it exists, else `<agentDir>/<name>` on `agentFs`, else none. The most specific
 * location wins, as pi's project file wins over the agent dir's.
 */
export async function discoverPromptFile(
  name: "SYSTEM.md" | "APPEND_SYSTEM.md",
  options: DiscoverPromptFileOptions,
): Promise<{ path: string; filesystem: ResourceFilesystem } | undefined> {
  const projectPath = childPath(childPath(options.cwd, ".pi"), name);
  if (options.projectTrusted) {
    const found = await statInWorkspace(options.fs, projectPath, options.root);
    if (found && !("escape" in found)) return { path: projectPath, filesystem: "project" };
    if (options.teamFs && options.teamRulesDir) {
      const teamPath = childPath(normalizePosix(options.teamRulesDir), name);
      if ((await tryStat(options.teamFs, teamPath))?.kind === "file")
        return { path: teamPath, filesystem: "team" };
    }
  }
  if (options.agentFs && options.agentDir) {
    const globalPath = childPath(normalizePosix(options.agentDir), name);
    if (await tryStat(options.agentFs, globalPath)) return { path: globalPath, filesystem: "agent" };
  }
  return undefined;
}
