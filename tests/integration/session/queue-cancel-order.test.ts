/**
 * `cancelWaiting` hands the queued texts back as pi's interactive mode restores them (steering, then follow-ups,
 * each oldest first) — also when a steer sent just before a follow-up was stored just after it (two requests race).
 */
import { describe, expect, it } from "vitest";
import { withDb } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { cancelWaiting } from "@/lib/session/queue-cancel";
import { createSession } from "@/lib/session/store";
import { createTestUser } from "../../helpers/auth";

describe("cancelWaiting order", () => {
  it("steering first, then follow-ups, each oldest first; append rows stay", async () => {
    const user = await createTestUser();
    const texts = await withDb(async (scope) => {
      const project = await insertProject(scope, {
        workspaceId: user.workspaceId,
        name: "queue",
        source: null,
      });
      const session = await createSession(scope, {
        projectId: project.id,
        cwd: project.rootPath,
        userId: user.id,
      });
      for (const [kind, text] of [
        ["followUp", "Then say hi."],
        ["steer", "Stop sleeping."],
        ["append", "(shell result)"],
        ["followUp", "And bye."],
        ["steer", "Hurry."],
      ])
        await scope.query(
          "INSERT INTO session_queue (session_id, kind, input_text, message) VALUES ($1, $2, $3, '{}')",
          [session.id, kind, text],
        );
      const handed = await scope.transaction((q) => cancelWaiting(q, session.id));
      const left = await scope.query<{ kind: string }>(
        "SELECT kind FROM session_queue WHERE session_id = $1 AND claimed_at IS NULL",
        [session.id],
      );
      return { handed, left: left.map((r) => r.kind) };
    });
    expect(texts).toEqual({
      handed: ["Stop sleeping.", "Hurry.", "Then say hi.", "And bye."],
      left: ["append"],
    });
  });
});
