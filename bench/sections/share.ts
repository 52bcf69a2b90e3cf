/**
 * Share preview (lib/share/build.ts) of a 2,000-entry branch with 200 files at the leaf's commit: the path loaded,
 * re-ided and redacted (a few batched secretlint calls, not one per string), the files read and redacted. Some
 * strings and files carry secrets so the redaction does real work. Target: ≤ 3 s.
 */
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import type { SessionEntry } from "@/lib/session/entries";
import { insertImportedSession } from "@/lib/session/store";
import { buildSharePreview } from "@/lib/share/build";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import type { BenchContext, BenchSection } from "../context";

const RUNS = 5;
const ENTRIES = 2000;
const FILES = 200;
const TEXT = "lorem ipsum dolor sit amet, consectetur adipiscing elit ".repeat(4);
const ts = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

function entries(): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (let i = 0; i < ENTRIES; i++) {
    const secret = i % 100 === 0 ? ` sk-proj-abcdefghijklmnopqrstuvwx${i}` : "";
    const role = i % 3 === 0 ? "user" : i % 3 === 1 ? "assistant" : "toolResult";
    const message =
      role === "user"
        ? { role, content: [{ type: "text", text: `${TEXT} ${i}${secret}` }], timestamp: i }
        : role === "assistant"
          ? {
              role,
              content: [
                { type: "text", text: `${TEXT} answer ${i}` },
                {
                  type: "toolCall",
                  id: `call_${i}`,
                  name: "read",
                  arguments: { path: `src/file-${i % FILES}.ts` },
                },
              ],
              timestamp: i,
            }
          : {
              role,
              toolCallId: `call_${i - 1}`,
              toolName: "read",
              content: [{ type: "text", text: `${TEXT.repeat(3)}${secret}` }],
              isError: false,
              timestamp: i,
            };
    out.push({
      type: "message",
      id: i.toString(16).padStart(8, "0"),
      parentId: i === 0 ? null : (i - 1).toString(16).padStart(8, "0"),
      timestamp: ts(i),
      message,
    } as unknown as SessionEntry);
  }
  return out;
}

export const shareSection: BenchSection = {
  name: "share",
  async run(ctx: BenchContext) {
    const scope = new DbScope();
    try {
      const actor = await getLocalActor(scope);
      const project = await insertProject(scope, {
        workspaceId: actor.workspaceId,
        name: "bench-share",
        source: null,
      });
      const { vfs, scope: vs } = openWorkspaceVfs(actor.workspaceId, new DbScope());
      await initRepository(vfs, project.rootPath);
      for (let i = 0; i < FILES; i++) {
        const body = Array.from({ length: 80 }, (_, l) => `export const v${l} = ${i * l}; // ${TEXT}`).join(
          "\n",
        );
        const secret = i % 20 === 0 ? `\nconst DB_PASSWORD = "hunter2-${i}";\n` : "\n";
        await vfs.writeFile(`${project.rootPath}/src/file-${i}.ts`, body + secret);
      }
      await vfs.writeFile(`${project.rootPath}/.env`, "API_KEY=abc123def456\nPORT=3000\n");
      const commit = await commitAll(vfs, project.rootPath, {
        message: "init",
        author: { name: "b", email: "b@x" },
      });
      await vfs.flush();
      await vs.release();
      const list = entries();
      const session = await insertImportedSession(
        scope,
        project.id,
        { type: "session", version: 3, id: crypto.randomUUID(), timestamp: ts(0), cwd: project.rootPath },
        list,
        { commitOid: commit },
      );
      const options = {
        leafId: list.at(-1)!.id,
        includeFiles: true,
        includeSystem: false,
        redact: ["Project Nightingale"],
      };
      const samples: number[] = [];
      let redactions = 0;
      for (let r = 0; r < RUNS; r++)
        samples.push(
          await ctx.time(async () => {
            redactions = (await buildSharePreview(scope, session, options)).snapshot.redactions.length;
          }),
        );
      ctx.report(
        `share preview: ${ENTRIES} entries, ${FILES} files (${redactions} redactions)`,
        samples,
        3000,
      );
    } finally {
      await scope.release();
    }
  },
};
