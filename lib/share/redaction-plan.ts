/**
 * The redaction plan of a share: every string a share would show (the title, each entry's strings and object keys,
 * the shared files' paths and texts, the system prompt and its sources) is registered with where it sits
 * (`RedactionSite`) and how to write its redacted text back; `apply` redacts them all in one `redactTexts` call (in
 * registration order, which is the order the preview lists redactions in) and writes each result back.
 */
import type { DbScope } from "@/lib/db/client";
import { previewStoredSession } from "@/lib/inspector/session-preview";
import type { Env } from "@/lib/llm/models";
import type { Project } from "@/lib/projects/projects";
import { workspaceProviderEnv } from "@/lib/secrets";
import type { SessionEntry } from "@/lib/session/entries";
import type { SessionRow } from "@/lib/session/store";
import { setOwn, walkStrings } from "./entry-strings";
import { placePath } from "./paths";
import { type RedactItem, redactTexts } from "./redact";
import type { Redaction, RedactionSite, SharedFileInfo, ShareSnapshot } from "./types";

/** A site, or a site that depends on the finding's line (files and the system prompt). */
type SiteOf = RedactionSite | ((line: number) => RedactionSite);

/** An object key to rename once every value is set (keys of tool-call arguments, details, custom data). */
export interface KeyRename {
  holder: Record<string, unknown>;
  from: string;
  to: () => string;
}

/** The strings to redact, each with its site and its write-back. */
export class RedactionPlan {
  private readonly items: RedactItem[] = [];
  private readonly sites: SiteOf[] = [];
  private readonly setters: ((text: string) => void)[] = [];

  /** Register `item` at `site`; `set` receives its redacted text. */
  add(item: RedactItem, site: SiteOf, set: (text: string) => void): void {
    this.items.push(item);
    this.sites.push(site);
    this.setters.push(set);
  }

  /**
   * Redact every registered string (owner strings `owner` too), write the results back and list the findings.
   * @returns one Redaction per finding, in registration order.
   */
  async apply(owner: readonly string[]): Promise<Redaction[]> {
    const redacted = await redactTexts(this.items, owner);
    const redactions: Redaction[] = [];
    redacted.forEach((r, i) => {
      this.setters[i](r.text);
      const site = this.sites[i];
      r.findings.forEach((f, k) => {
        redactions.push({
          site: typeof site === "function" ? site(f.line) : site,
          rule: f.rule,
          kind: f.kind,
          excerpt: r.excerpts[k],
        });
      });
    });
    return redactions;
  }
}

/**
 * Register every string and key of `entries` (original entry ids quoted in strings are swapped for `fresh` ones;
 * values under secret-named keys go whole). @returns the keys to rename after `apply` and the count of images.
 */
export function planEntries(
  plan: RedactionPlan,
  entries: SessionEntry[],
  fresh: ReadonlyMap<string, string>,
): { renames: KeyRename[]; images: number } {
  const idPattern = /\b[0-9a-f]{8}\b/g;
  const swapIds = (s: string) => s.replace(idPattern, (m) => fresh.get(m) ?? m);
  const renames: KeyRename[] = [];
  let images = 0;
  entries.forEach((entry, index) => {
    const site =
      (part: string | undefined) =>
      (line: number): RedactionSite =>
        part ? { kind: "entry", entry: index, part, line } : { kind: "entry", entry: index, line };
    walkStrings(entry as unknown as Record<string, unknown>, {
      string: (holder, key, value, secretKey, part) => {
        plan.add(secretKey ? { text: value, secretKey } : { text: swapIds(value) }, site(part), (t) => {
          setOwn(holder, key, t);
        });
      },
      key: (holder, key, part) => {
        let to = key;
        plan.add({ text: key }, site(part ? `${part} key` : "key"), (t) => {
          to = t;
        });
        renames.push({ holder, from: key, to: () => to });
      },
      image: () => {
        images++;
      },
    });
  });
  return { renames, images };
}

/**
 * Register each shared file's path (line 0 = the name; clashes once redacted get `~2`, `~3`, …: `placePath`) and
 * text. @returns the redacted texts by redacted path, filled by `apply` (no prototype: a file may be `__proto__`).
 */
export function planFiles(
  plan: RedactionPlan,
  files: { list: SharedFileInfo[]; texts: Map<string, string> } | null,
): Record<string, string> {
  const fileTexts: Record<string, string> = Object.create(null);
  const takenPaths = { files: new Set<string>(), dirs: new Set<string>() };
  for (const info of files?.list ?? []) {
    const original = info.path;
    plan.add(
      { text: original },
      () => ({ kind: "file", path: info.path, line: 0 }),
      (t) => {
        info.path = placePath(t, takenPaths);
      },
    );
    const text = files?.texts.get(original);
    if (text === undefined) continue;
    plan.add(
      { text, filePath: original },
      (line) => ({ kind: "file", path: info.path, line }),
      (t) => {
        fileTexts[info.path] = t;
      },
    );
  }
  return fileTexts;
}

/**
 * The system prompt and its sources as the context inspector builds them for the leaf (trust-gated sources only
 * when trusted), registered for redaction (line 0 of the system site: the sources' labels and paths).
 * @throws the context preview's errors.
 */
export async function planSystem(
  plan: RedactionPlan,
  scope: DbScope,
  shared: { session: SessionRow; project: Project; leafId: string },
  context: { userId?: string | null; env?: Env },
): Promise<NonNullable<ShareSnapshot["system"]>> {
  const { session, project } = shared;
  const env = context.env ?? (await workspaceProviderEnv(scope, project.workspaceId, process.env));
  const preview = await previewStoredSession(scope, {
    session,
    project,
    userId: context.userId ?? session.userId ?? "",
    text: "",
    leafId: shared.leafId,
    env,
  });
  const sources = preview.sectionSources
    .filter((s) => s.path && (!s.trustGated || s.trusted))
    .map((s) => ({ label: s.section, path: s.path! }));
  const system = { prompt: preview.systemPrompt, sources };
  plan.add(
    { text: system.prompt },
    (line) => ({ kind: "system", line }),
    (t) => {
      system.prompt = t;
    },
  );
  for (const source of sources)
    for (const field of ["label", "path"] as const)
      plan.add({ text: source[field] }, { kind: "system", line: 0 }, (t) => {
        source[field] = t;
      });
  return system;
}
