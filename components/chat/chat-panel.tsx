"use client";

import { useEffect, useRef, useState } from "react";
import { InspectorPanel } from "@/components/inspector/inspector-panel";
import { editUserMessage, SessionTree } from "@/components/session-tree/session-tree";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { useAttachments } from "./attachments";
import { nonVisionNotice } from "./attachments-tray";
import { Composer, type ComposerIntent } from "./composer";
import { ContextPanel } from "./context-panel";
import { browserStorage, saveDraft } from "./draft-store";
import { MessageList } from "./message-list";
import { restoreDraft } from "./queue";
import { QueuedList } from "./queued-list";
import { isAgentRun, runNotice } from "./run-label";
import { RunLinkNotice } from "./run-link-notice";
import { SessionBar, sessionLabel } from "./session-bar";
import { SessionStatsLine } from "./session-stats-line";
import { ToolToggles } from "./tool-toggles";
import { TrustDialog } from "./trust-dialog";
import { useTurnChangesUi } from "./turn-changes";
import { useChat } from "./use-chat";
import { useDraft } from "./use-draft";
import { useModelChoice } from "./use-model-choice";
import { useSessionResources } from "./use-session-resources";
import { useSessions } from "./use-sessions";

/**
 * The chat pane: session and model pickers, the streamed conversation and the composer. With `readOnlyNote` (the
 * caller's role cannot write) sessions can be read only: no new/renamed/deleted/imported sessions, no model switch,
 * no branch/fork/compact, and the composer is disabled with the note as its reason.
 */
export function ChatPanel({
  projectId,
  onPathsChanged,
  onRunEnd,
  readOnlyNote = null,
  unsavedBuffers,
  onFilesRestored,
  onSessionChange,
}: {
  projectId: string;
  /** Paths the agent reports changed (files_changed, successful write/edit). */
  onPathsChanged: (paths: string[]) => void;
  /** Called when a run's stream has closed (e.g. to re-read the git HEAD a `git commit` may have moved). */
  onRunEnd?: () => void;
  /** Why the caller can only read (their role), or null when they can prompt. */
  readOnlyNote?: string | null;
  /** The editor's unsaved buffers: a restore or fork from the session tree keeps them before files change. */
  unsavedBuffers?: () => { path: string; content: string }[];
  /** A restore or fork from the session tree changed these project files (reload them). */
  onFilesRestored?: (paths: string[]) => void;
  /** The open session changed (null: none yet): its working tree is what the IDE's files show. */
  onSessionChange?: (sessionId: string | null) => void;
}) {
  const readOnly = readOnlyNote !== null;
  /** The session tree is open (the live watch waits while the user moves in it). */
  const treeOpenRef = useRef(false);
  const modelRef = useRef("");
  const sessions = useSessions(projectId, () => modelRef.current || undefined, !readOnly);
  // The composer's text, kept per session in localStorage until the server accepted it.
  const { draft, setDraft, take, release, settle } = useDraft(sessions.sessionId);
  const current = sessions.sessions.find((s) => s.id === sessions.sessionId);
  const resources = useSessionResources(projectId, sessions.sessionId);
  const sessionChangeRef = useRef(onSessionChange);
  sessionChangeRef.current = onSessionChange;
  useEffect(() => sessionChangeRef.current?.(sessions.sessionId), [sessions.sessionId]);
  // The trust prompt: shown when the session has gated resources and no decision, or when asked for.
  const [trustDialog, setTrustDialog] = useState<"auto" | "open" | "dismissed">("auto");
  useEffect(() => {
    if (sessions.sessionId) setTrustDialog("auto");
  }, [sessions.sessionId]);
  const trust = resources.data?.trust ?? null;
  const showTrust =
    !readOnly &&
    trust !== null &&
    (trustDialog === "open" || (trustDialog === "auto" && trust.needsDecision));
  const { refresh: refreshResources } = resources;
  const chat = useChat(sessions.sessionId, {
    watchPaused: () => treeOpenRef.current,
    onPathsChanged,
    onRunEnd: () => {
      setRunEnds((n) => n + 1);
      void sessions.refresh();
      void refreshResources();
      onRunEnd?.();
    },
    onQueueReturned: (texts) => setDraft((d) => restoreDraft(texts, d)),
  });
  // A run of this tab, or one another tab started (followed by its attach stream): either way prompts are queued.
  // A `!command` of this tab counts too: the bar shows it and Abort stops it.
  const running = chat.state.running || chat.remoteRunning || chat.shellRunning;
  const [runEnds, setRunEnds] = useState(0);
  // A session remembers its model: followed when the session is opened; a switch is stored in the session.
  const {
    config,
    configError,
    model,
    choose: chooseModel,
    saveError,
    saved: modelSaved,
  } = useModelChoice(current, running, projectId);
  modelRef.current = model;
  const noModel = config !== null && !config.configured;
  // Images attached to the next prompt; a model without image input gets pi's placeholder text instead.
  const attachments = useAttachments();
  const modelInfo = config?.models.find((m) => m.id === model);
  const imageNotice =
    modelInfo && !modelInfo.input.includes("image") ? nonVisionNotice(modelInfo.name) : null;

  // The text leaves the box while it is sent and comes back unless the server accepted it (stored meanwhile).
  const submit = async (intent: ComposerIntent) => {
    setEditedAway(null);
    const sent = take();
    // A model switch still being stored goes first (the prompt then runs on the switched session).
    await modelSaved();
    // Images go with a new prompt only (the composer allows no steering while images are attached).
    const images = intent.kind === "prompt" && !running ? attachments.take() : [];
    const m = model || undefined;
    const onAccepted = () => settle(sent, true);
    // The server took the text (its run's stream answered): a reload must not bring it back.
    const onStarted = () => release(sent);
    const accepted =
      intent.kind === "shell"
        ? await chat.shell(sent.text, onStarted)
        : running
          ? await chat.queue(sent.text, intent.behavior, m, onAccepted, onStarted)
          : await chat.send(
              sent.text,
              m,
              onAccepted,
              images.map((a) => a.image),
              onStarted,
            );
    settle(sent, accepted);
    if (!accepted && images.length > 0) attachments.restore(images);
  };

  // Moves in the session tree (a restore, an edit): the path changed, so the turns' changes are read again.
  const [moves, setMoves] = useState(0);
  // Issue 14: the files each turn changed (read again when a run ends or the leaf moves), the diff view, reverts.
  const changes = useTurnChangesUi({
    sessionId: sessions.sessionId,
    messages: chat.state.messages,
    refreshKey: `${runEnds}:${moves}`,
    busy: running || chat.loading,
    readOnly,
    onReverted: (result) => {
      chat.reload();
      onPathsChanged(result.paths);
    },
  });
  // ── session tree (pi's /tree; components/session-tree) ──
  const [treeOpen, setTreeOpen] = useState(false);
  treeOpenRef.current = treeOpen;
  const [editError, setEditError] = useState<string | null>(null);
  /** After "Edit": how many later messages stay on the branch the session left (said until the next send). */
  const [editedAway, setEditedAway] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: said of one session only; another one clears it
  useEffect(() => setEditedAway(null), [sessions.sessionId]);
  const afterMove = (result: { editorText?: string }) => {
    chat.reload();
    setMoves((n) => n + 1);
    if (result.editorText !== undefined) setDraft(result.editorText);
  };
  const editMessage = (index: number) => {
    if (!sessions.sessionId) return;
    setEditError(null);
    const later = chat.state.messages.length - index - 1;
    editUserMessage(sessions.sessionId, chat.state.messages, index).then(
      (result) => {
        afterMove(result);
        setEditedAway(later);
      },
      (err) => setEditError(err instanceof Error ? err.message : String(err)),
    );
  };
  // ── end session tree ──

  const runNote = runNotice(chat.runOrigin, chat.liveRun);
  // The history re-reads its tree when the conversation grows, a run starts or ends, or a `!command` ends.
  const settledShells = Object.values(chat.state.shells).filter((s) => s.status !== "running").length;

  // Queued messages the run never got come back to the composer, before the draft.
  const abort = () => chat.abort((undelivered) => setDraft((d) => restoreDraft(undelivered, d)));

  return (
    <section className="chat-pane" aria-label="Chat">
      <SessionBar
        sessions={sessions.sessions}
        sessionId={sessions.sessionId}
        onSelectSession={sessions.select}
        onNewSession={() => void sessions.create(model || undefined)}
        models={config?.models ?? []}
        model={model}
        onSelectModel={chooseModel}
        busy={running || sessions.creating}
        live={running ? (chat.runOrigin === "elsewhere" ? "remote" : "here") : null}
        liveRun={chat.liveRun}
        readOnly={readOnly}
        projectId={projectId}
        onImported={() => void sessions.refresh()}
        onSessionRenamed={sessions.replace}
        onSessionDeleted={(d) => sessions.forget(d.id)}
        onOpenTree={() => setTreeOpen(true)}
      >
        {changes.sessionButton}
      </SessionBar>
      {chat.watch.viewers.length > 1 ? (
        <p className="muted session-viewers" data-testid="session-viewers">
          Viewing now: {chat.watch.viewers.map((v) => v.name).join(", ")}
        </p>
      ) : null}
      {saveError ? <Notice kind="error">{saveError}</Notice> : null}
      <ContextPanel
        data={resources.data}
        error={resources.error}
        onChangeTrust={readOnly ? undefined : () => setTrustDialog("open")}
        onStopPreview={readOnly ? undefined : resources.stopPreview}
      />
      <ToolToggles
        sessionId={sessions.sessionId}
        busy={running}
        readOnly={readOnly}
        refreshKey={`${sessions.sessionId}:${chat.state.messages.length}:${running}:${runEnds}`}
        onChanged={() => chat.reload()}
      />
      <SessionTree
        sessionId={sessions.sessionId}
        sessionName={current ? sessionLabel(current) : null}
        open={treeOpen}
        onOpenChange={setTreeOpen}
        busy={running}
        readOnly={readOnly}
        refreshKey={`${sessions.sessionId}:${chat.state.messages.length}:${running}:${settledShells}:${runEnds}`}
        onMoved={afterMove}
        onForked={(session, text) => {
          if (text) saveDraft(browserStorage(), session.id, text);
          void sessions.refresh().then(() => sessions.select(session.id));
        }}
        onRenamed={sessions.replace}
        onCompacted={() => chat.reload()}
        unsavedBuffers={unsavedBuffers}
        onFilesChanged={onFilesRestored}
        projectId={projectId}
      />
      {editError ? <Notice kind="error">{editError}</Notice> : null}
      {editedAway !== null ? (
        <Notice
          kind="info"
          actions={
            <>
              <button type="button" className="btn" onClick={() => setTreeOpen(true)}>
                Show the tree
              </button>
              <button type="button" className="btn" onClick={() => setEditedAway(null)}>
                Dismiss
              </button>
            </>
          }
        >
          Editing starts a new branch from here.{" "}
          {editedAway === 0
            ? "The edited message stays"
            : `The edited message and the ${editedAway} after it stay`}{" "}
          on the previous branch in the session tree.
        </Notice>
      ) : null}
      <InspectorPanel
        projectId={projectId}
        sessionId={sessions.sessionId}
        chatModel={model || null}
        refreshKey={`${sessions.sessionId}:${chat.state.messages.length}:${running}:${settledShells}:${runEnds}`}
      />
      {showTrust && trust ? (
        <TrustDialog
          trust={trust}
          busy={resources.choosing}
          onChoose={(choice) => void resources.choose(choice).then(() => setTrustDialog("dismissed"))}
          onDismiss={() => setTrustDialog("dismissed")}
        />
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
        <MessageList
          state={chat.state}
          authors={chat.authors}
          onRetry={readOnly ? undefined : () => void chat.retry(model || undefined)}
          onCancelRetry={readOnly ? undefined : () => void abort()}
          cancelling={chat.aborting}
          hasModel={!noModel}
          readOnly={readOnly}
          changes={changes}
          onEditUser={readOnly || running ? undefined : editMessage}
        />
      )}
      {changes.notice}
      {changes.overlay}
      {runNote && !readOnly ? <Notice kind="info">{runNote}</Notice> : null}
      <RunLinkNotice link={chat.link} onReconnect={chat.reconnect} run={chat.liveRun} />
      {chat.watch.error ? (
        <Notice kind="warning" title="Not live">
          {chat.watch.error}
        </Notice>
      ) : null}
      <QueuedList queue={chat.state.queue} />
      <Composer
        value={draft}
        onChange={setDraft}
        onSubmit={(intent) => void submit(intent)}
        onAbort={() => void abort()}
        running={running}
        steerable={isAgentRun(chat.liveRun)}
        aborting={chat.aborting}
        disabled={!sessions.sessionId || chat.loading}
        disabledReason={
          !sessions.listed || sessions.creating || (sessions.sessionId && chat.loading)
            ? "Loading the session…"
            : "No session: start one with “New session” above"
        }
        noModel={noModel}
        noModelHelp={config?.help}
        readOnlyReason={readOnlyNote}
        attachments={readOnly ? undefined : attachments}
        commands={resources.data?.commands}
        imageNotice={imageNotice}
      />
      <SessionStatsLine
        messages={chat.state.messages}
        contextWindow={config?.models.find((m) => m.id === model)?.contextWindow}
      />
    </section>
  );
}
