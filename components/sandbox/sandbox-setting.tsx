"use client";

import { SettingSwitch } from "@/components/settings/setting-switch";

/**
 * The workspace settings page's "Run the project's code" card: what the sandbox lets the agent do, whether it is
 * on, and for the workspace's owner a switch (`PUT /api/workspaces/<id>/sandbox`). Others see the state and who
 * can change it.
 */
export function SandboxSetting({
  workspaceId,
  initial,
  canChange,
}: {
  workspaceId: string;
  initial: boolean;
  /** The caller owns the workspace. */
  canChange: boolean;
}) {
  return (
    <SettingSwitch
      title="Run the project's code"
      endpoint={`/api/workspaces/${encodeURIComponent(workspaceId)}/sandbox`}
      initial={initial}
      canChange={canChange}
      whoCanChange="Only the workspace's owner turns the sandbox on or off."
      said={(on) =>
        on
          ? "Sandbox on. New prompts in this workspace's projects can run the project's code."
          : "Sandbox off. The agent's shell is the simulated one only."
      }
    >
      <p>
        When on, commands the agent&apos;s simulated shell lacks — <code>npm test</code>,{" "}
        <code>npx vitest</code>, <code>pytest</code>, <code>cargo test</code>, <code>make</code> — run in an
        isolated Linux sandbox on a copy of the project&apos;s files, so the agent can run the tests it just
        edited. Files they change are written back and checkpointed like the agent&apos;s edits.
      </p>
      <p>
        The sandbox has no network (no package downloads: commit <code>node_modules</code> or vendor what the
        tests need), sees none of the server&apos;s files or secrets, and is stopped at 5 minutes, 60 s of
        CPU, 512 MiB of memory per process and 16 MiB of output. Off by default.
      </p>
    </SettingSwitch>
  );
}
