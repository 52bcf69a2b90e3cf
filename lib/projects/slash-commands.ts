/**
 * The `/` commands a session offers in the composer's autocomplete, in pi's order (interactive mode's
 * `setupAutocomplete`): built-in commands, prompt templates (`/name`), extension commands, then skills
 * (`/skill:name`, pi's `enableSkillCommands`, on by default). Each with its description.
 */
import type { LoadedResources } from "@/lib/resources/resource-loader";

/** One entry of the autocomplete list. */
export interface SlashCommand {
  /** What follows the `/`: `compact`, `review`, `skill:x`. */
  name: string;
  description: string;
  source: "builtin" | "template" | "extension" | "skill";
  /** A template's `argument-hint` frontmatter. */
  argumentHint?: string;
}

/** Strata's built-in commands: pi's `/compact` (its description as pi words it). */
export const BUILTIN_SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: "compact",
    description: "Manually compact the session context",
    source: "builtin",
    argumentHint: "[instructions]",
  },
];

/**
 * The commands of a session: {@link BUILTIN_SLASH_COMMANDS}, then `resources.promptTemplates` (in load order), the
 * given extension commands (`ExtensionRunner.getCommands()`), then `resources.skills` as `skill:<name>`. A name
 * already listed is not listed again (pi: the first registration wins).
 */
export function listSlashCommands(
  resources: Pick<LoadedResources, "skills" | "promptTemplates">,
  extensionCommands: readonly { name: string; description?: string }[] = [],
): SlashCommand[] {
  const all: SlashCommand[] = [
    ...BUILTIN_SLASH_COMMANDS,
    ...resources.promptTemplates.map((t) => ({
      name: t.name,
      description: t.description,
      source: "template" as const,
      ...(t.argumentHint ? { argumentHint: t.argumentHint } : {}),
    })),
    ...extensionCommands.map((c) => ({
      name: c.name,
      description: c.description ?? "",
      source: "extension" as const,
    })),
    ...resources.skills.map((s) => ({
      name: `skill:${s.name}`,
      description: s.description,
      source: "skill" as const,
    })),
  ];
  const seen = new Set<string>();
  return all.filter((c) => {
    if (seen.has(c.name)) return false;
    seen.add(c.name);
    return true;
  });
}
