"use client";

import { useEffect, useState } from "react";
import { type ConfigResponse, describeError, getConfig } from "@/components/api-client";
import { VariableList } from "@/components/chat/no-model-note";
import { Notice } from "@/components/ui/notice";

/**
 * Shows whether a model provider is configured for `workspaceId` (GET /api/config?workspace=: the server's keys and
 * the workspace's secrets) and, if not, how to set one up.
 */
export function ConfigBanner({ workspaceId }: { workspaceId?: string }) {
  const [config, setConfig] = useState<ConfigResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    getConfig(ctrl.signal, undefined, workspaceId).then(setConfig, (err) => {
      if (!ctrl.signal.aborted) setError(describeError(err));
    });
    return () => ctrl.abort();
  }, [workspaceId]);

  if (error) {
    return (
      <Notice kind="error" title="Could not read the model configuration">
        {error}
      </Notice>
    );
  }
  if (!config) return null;
  if (!config.configured) {
    return (
      <Notice kind="warning" title="No model provider is configured">
        <p>
          The agent needs an API key in the server environment. Set one of <VariableList /> in{" "}
          <code>.env.local</code> (or the server&apos;s environment), then restart <code>npm start</code>.
        </p>
        {workspaceId ? (
          <p>
            Or, as an owner or admin, set a key for this workspace only in{" "}
            <a href={`/workspaces/${workspaceId}/settings`}>Workspace settings</a> (no restart needed).
          </p>
        ) : null}
        {config.help ? (
          <details>
            <summary>All settings</summary>
            <pre className="config-help">{config.help}</pre>
          </details>
        ) : null}
      </Notice>
    );
  }
  return (
    <p className="config-ok" role="status">
      {config.models.length} model{config.models.length === 1 ? "" : "s"} available
      {config.defaultModel ? (
        <>
          {" "}
          · default <code>{config.defaultModel}</code>
        </>
      ) : null}
    </p>
  );
}
