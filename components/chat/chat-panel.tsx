"use client";

import { useEffect, useState } from "react";
import { type ConfigResponse, describeError, getConfig } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { Composer } from "./composer";
import { ContextPanel } from "./context-panel";
import { MessageList } from "./message-list";
import { SessionBar } from "./session-bar";
import { SessionHistory } from "./session-history";
import { TrustDialog } from "./trust-dialog";
import { useChat } from "./use-chat";
import { useSessionResources } from "./use-session-resources";
import { useSessions } from "./use-sessions";

const MODEL_KEY = "strata.model";

function rememberedModel(): string | null {
  try {
    return window.localStorage.getItem(MODEL_KEY);
  } catch {
    return null;
  }
}

function rememberModel(id: string) {
  try {
    window.localStorage.setItem(MODEL_KEY, id);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}

/** The chat pane: session and model pickers, the streamed conversation and the composer. */
export function ChatPanel({
  projectId,
  onPathsChanged,
}: {
  projectId: string;
  /** Paths the agent reports changed (files_changed, successful write/edit). */
  onPathsChanged: (paths: string[]) => void;
}) {
  const [config, setConfig] = useState<ConfigResponse | null>(null);
  const [configError, setConfigError] = useState<string | null>(null);
  const [model, setModel] = useState("");
  const [draft, setDraft] = useState("");

  useEffect(() => {
    const ctrl = new AbortController();
    getConfig(ctrl.signal).then(
      (c) => {
        setConfig(c);
        const stored = rememberedModel();
        const known = (id: string | null) => (id && c.models.some((m) => m.id === id) ? id : null);
        setModel((m) => known(m) ?? known(stored) ?? c.defaultModel ?? c.models[0]?.id ?? "");
      },
      (err) => {
        if (!ctrl.signal.aborted) setConfigError(describeError(err));
      },
    );
    return () => ctrl.abort();
  }, []);

  const sessions = useSessions(projectId, () => model || undefined);
  const resources = useSessionResources(projectId, sessions.sessionId);
  // The trust prompt: shown when the session has gated resources and no decision, or when asked for.
  const [trustDialog, setTrustDialog] = useState<"auto" | "open" | "dismissed">("auto");
  useEffect(() => {
    if (sessions.sessionId) setTrustDialog("auto");
  }, [sessions.sessionId]);
  const trust = resources.data?.trust ?? null;
  const showTrust =
    trust !== null && (trustDialog === "open" || (trustDialog === "auto" && trust.needsDecision));
  const { refresh: refreshResources } = resources;
  const chat = useChat(sessions.sessionId, {
    onPathsChanged,
    onRunEnd: () => {
      void sessions.refresh();
      void refreshResources();
    },
  });
  const { running } = chat.state;

  // A session remembers its model: follow it when switching sessions.
  const current = sessions.sessions.find((s) => s.id === sessions.sessionId);
  const sessionModel = current?.model ?? null;
  useEffect(() => {
    if (sessionModel && config?.models.some((m) => m.id === sessionModel)) setModel(sessionModel);
  }, [sessionModel, config]);

  const send = async () => {
    const text = draft;
    setDraft("");
    const started = await chat.send(text, model || undefined);
    if (!started) setDraft((d) => (d === "" ? text : d));
  };

  return (
    <section className="chat-pane" aria-label="Chat">
      <SessionBar
        sessions={sessions.sessions}
        sessionId={sessions.sessionId}
        onSelectSession={sessions.select}
        onNewSession={() => void sessions.create(model || undefined)}
        models={config?.models ?? []}
        model={model}
        onSelectModel={(id) => {
          setModel(id);
          rememberModel(id);
        }}
        busy={running || sessions.creating}
        projectId={projectId}
        onImported={() => void sessions.refresh()}
      />
      <ContextPanel
        data={resources.data}
        error={resources.error}
        onChangeTrust={() => setTrustDialog("open")}
      />
      <SessionHistory
        sessionId={sessions.sessionId}
        busy={running}
        refreshKey={`${sessions.sessionId}:${chat.state.messages.length}:${running}`}
        onNavigated={(result) => {
          chat.reload();
          if (result.editorText) setDraft(result.editorText);
        }}
        onForked={(session) => {
          void sessions.refresh().then(() => sessions.select(session.id));
        }}
        onCompacted={() => chat.reload()}
      />
      {showTrust && trust ? (
        <TrustDialog
          trust={trust}
          busy={resources.choosing}
          onChoose={(choice) => void resources.choose(choice).then(() => setTrustDialog("dismissed"))}
          onDismiss={() => setTrustDialog("dismissed")}
        />
      ) : null}
      {config && !config.configured ? (
        <Notice kind="warning" title="No model provider is configured">
          <pre className="config-help">{config.help}</pre>
        </Notice>
      ) : null}
      {configError ? (
        <Notice kind="error" title="Could not read the model configuration">
          {configError}
        </Notice>
      ) : null}
      {sessions.error ? <Notice kind="error">{sessions.error}</Notice> : null}
      {chat.loadError ? (
        <Notice kind="error" title="Could not load the session">
          {chat.loadError}
        </Notice>
      ) : null}
      {chat.loading ? (
        <div className="chat-loading">
          <Spinner label="Loading conversation" />
        </div>
      ) : (
        <MessageList state={chat.state} />
      )}
      <Composer
        value={draft}
        onChange={setDraft}
        onSend={() => void send()}
        onAbort={() => void chat.abort()}
        running={running}
        aborting={chat.aborting}
        disabled={!sessions.sessionId || chat.loading}
      />
    </section>
  );
}
