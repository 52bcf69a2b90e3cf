"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  deleteFile,
  describeError,
  getProject,
  getTree,
  type Project,
  type TreeEntry,
} from "@/components/api-client";
import { ChatPanel } from "@/components/chat/chat-panel";
import { toProjectPath } from "@/components/chat/reduce-events";
import { EditorPane } from "@/components/editor/editor-pane";
import { useOpenFiles } from "@/components/editor/use-open-files";
import { GetWorkOutMenu } from "@/components/git-remote/get-work-out-menu";
import { setWorktreeSession } from "@/components/http/worktree";
import { type DeleteTarget, isAtOrBelow, useTreeDelete } from "@/components/tree/delete-entry";
import { createProjectEntry, moveProjectEntry } from "@/components/tree/entries-api";
import { FileTree } from "@/components/tree/file-tree";
import { FilesPaneTitle } from "@/components/tree/files-pane-title";
import { GitHeadIndicator } from "@/components/tree/git-head";
import { folderPrefix, useTreeCreate } from "@/components/tree/new-entry";
import { PaneTabs, useIdeShortcuts } from "@/components/tree/pane-tabs";
import { QuickOpen } from "@/components/tree/quick-open";
import paneStyles from "@/components/tree/quick-open.module.css";
import { SearchPanel } from "@/components/tree/search-panel";
import { useTreeVersionPoll } from "@/components/tree/use-tree-version";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { leaveDeletedNotice } from "./lifecycle-client";
import { ProjectActions } from "./project-actions";
import readOnlyStyles from "./read-only.module.css";

/**
 * The IDE: file tree or search (left), editor (center), chat (right), wired to the agent's file changes and to
 * changes made elsewhere (the change feed, polled while the tab is visible); Ctrl/Cmd+P quick open, Ctrl/Cmd+Shift+F
 * search. With `readOnlyNote`
 * (the caller's role cannot write, e.g. a viewer) the note is a banner on top and nothing offers a change: no
 * project Rename/Delete, no + File/+ Folder/delete, a read-only editor, no prompts or session changes.
 */
export function ProjectWorkspace({
  projectId,
  readOnlyNote = null,
}: {
  projectId: string;
  /** Why the caller can only read here (shown as the banner and in the composer), or null when they can write. */
  readOnlyNote?: string | null;
}) {
  const readOnly = readOnlyNote !== null;
  const [project, setProject] = useState<Project | null>(null);
  const [projectError, setProjectError] = useState<string | null>(null);
  const [entries, setEntries] = useState<TreeEntry[] | null>(null);
  const [treeError, setTreeError] = useState<string | null>(null);
  const [changed, setChanged] = useState<ReadonlySet<string>>(() => new Set());
  const files = useOpenFiles(projectId);
  const rootRef = useRef<string | null>(null);
  const router = useRouter();
  rootRef.current = project?.rootPath ?? null;

  // Bumped to re-read the git HEAD indicator: after a tree refresh (a `!command`, the agent's files) and a run.
  const [gitKey, setGitKey] = useState(0);
  const refreshTree = useCallback(
    async (signal?: AbortSignal) => {
      setGitKey((k) => k + 1);
      try {
        setEntries(await getTree(projectId, signal));
        setTreeError(null);
      } catch (err) {
        if (!signal?.aborted) setTreeError(describeError(err));
      }
    },
    [projectId],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    getProject(projectId, ctrl.signal).then(setProject, (err) => {
      if (!ctrl.signal.aborted) setProjectError(describeError(err));
    });
    void refreshTree(ctrl.signal);
    return () => ctrl.abort();
  }, [projectId, refreshTree]);

  useEffect(() => {
    if (project) document.title = `${project.name} · Strata`;
  }, [project]);

  const { notifyChanged } = files;
  const onPathsChanged = useCallback(
    (raw: string[]) => {
      const paths = raw.map((p) => toProjectPath(p, rootRef.current)).filter(Boolean);
      setChanged((prev) => {
        const next = new Set(prev);
        for (const p of paths) next.add(p);
        return next;
      });
      notifyChanged(paths);
      void refreshTree();
    },
    [notifyChanged, refreshTree],
  );

  const { files: openFiles, close } = files;
  const removeEntry = useCallback((path: string) => deleteFile(projectId, path), [projectId]);
  const onDeleted = useCallback(
    (target: DeleteTarget) => {
      for (const f of openFiles) if (isAtOrBelow(f.path, target.path)) close(f.path);
      void refreshTree();
    },
    [openFiles, close, refreshTree],
  );
  const remover = useTreeDelete(removeEntry, onDeleted);
  const { move: moveTabs, syncFromServer } = files;
  const onMove = useCallback(
    async (from: string, to: string) => {
      await moveProjectEntry(projectId, from, to);
      moveTabs(from, to);
      await refreshTree();
    },
    [projectId, moveTabs, refreshTree],
  );
  // Another tab, the agent, a `!command` or the CLI changed the files: re-read the tree and the open files.
  const live = useTreeVersionPoll(projectId, () => {
    void refreshTree();
    void syncFromServer();
  });
  const [pane, setPane] = useState<"files" | "search">("files");
  const [searchFocus, setSearchFocus] = useState(0);
  const [quickOpen, setQuickOpen] = useState(false);
  useIdeShortcuts({
    quickOpen: () => setQuickOpen(true),
    search: () => {
      setPane("search");
      setSearchFocus((n) => n + 1);
    },
  });
  const [revealed, setRevealed] = useState<string | null>(null);
  const { open: openFile } = files;
  const creator = useTreeCreate(
    entries,
    (path, kind) => createProjectEntry(projectId, path, kind),
    async ({ path, kind }) => {
      await refreshTree();
      setRevealed(path);
      if (kind === "file") openFile(path);
    },
  );

  if (projectError) {
    return (
      <main className="workspace-error">
        <Notice kind="error" title="Could not open the project">
          {projectError}
        </Notice>
        <Link href="/">Back to projects</Link>
      </main>
    );
  }

  return (
    <div className={readOnly ? `workspace ${readOnlyStyles.workspace}` : "workspace"}>
      <header className="workspace-header">
        <Link href="/" className="brand">
          Strata
        </Link>
        <span className="sep">/</span>
        <h1 className="project-name">{project?.name ?? "…"}</h1>
        {project ? <span className="muted mono">{project.rootPath}</span> : null}
        {project && !readOnly ? (
          <ProjectActions
            project={project}
            onRenamed={setProject}
            onDeleted={(d) => {
              leaveDeletedNotice(d);
              router.push("/");
            }}
          />
        ) : null}
        {project ? (
          <GetWorkOutMenu projectId={projectId} readOnly={readOnly} onPulled={() => void refreshTree()} />
        ) : null}
        <Link href="/agent" className="header-link">
          Agent dir
        </Link>
      </header>
      {readOnlyNote ? (
        <div className={readOnlyStyles.banner} role="status">
          {readOnlyNote}
        </div>
      ) : null}
      <nav className="tree-pane" aria-label="Project files">
        <PaneTabs
          pane={pane}
          onPane={(p) => {
            setPane(p);
            if (p === "search") setSearchFocus((n) => n + 1);
          }}
        />
        <div className={paneStyles.paneBody} hidden={pane !== "search"}>
          <SearchPanel
            projectId={projectId}
            focusSeq={searchFocus}
            onOpenAt={(path, line, column) => files.open(path, { line, column })}
          />
        </div>
        <div className={paneStyles.paneBody} hidden={pane !== "files"}>
          <FilesPaneTitle
            label={null}
            onRefresh={() => {
              void refreshTree();
              void syncFromServer();
            }}
            onNewFile={readOnly ? undefined : () => creator.start("file", folderPrefix(files.active?.path))}
            onNewFolder={readOnly ? undefined : () => creator.start("dir", folderPrefix(files.active?.path))}
          />
          <GitHeadIndicator projectId={projectId} refreshKey={gitKey} />
          {creator.form}
          {treeError ? (
            <Notice kind="error" title="Could not load files">
              {treeError}
            </Notice>
          ) : null}
          {live.error ? (
            <Notice kind="warning" title="Not live">
              {live.error}
            </Notice>
          ) : null}
          {entries ? (
            <FileTree
              entries={entries}
              selectedPath={files.active?.path ?? null}
              changedPaths={changed}
              onOpenFile={files.open}
              onDelete={readOnly ? undefined : remover.request}
              onMove={readOnly ? undefined : onMove}
              revealPath={revealed}
            />
          ) : treeError ? null : (
            <Spinner label="Loading files" />
          )}
        </div>
      </nav>
      <EditorPane files={files} readOnly={readOnly} />
      <ChatPanel
        projectId={projectId}
        onPathsChanged={onPathsChanged}
        onRunEnd={() => setGitKey((k) => k + 1)}
        readOnlyNote={readOnlyNote}
        unsavedBuffers={files.unsavedBuffers}
        onFilesRestored={(paths) => {
          files.reloadFromServer(paths);
          void refreshTree();
        }}
        onSessionChange={(sessionId) => {
          // Each session has its own working tree: show its files (unsaved buffers stay, as for a restore).
          if (!setWorktreeSession(projectId, sessionId)) return;
          void refreshTree();
          void syncFromServer();
        }}
      />
      {remover.dialog}
      {quickOpen && entries ? (
        <QuickOpen
          entries={entries}
          onOpen={(path) => files.open(path)}
          onClose={() => setQuickOpen(false)}
        />
      ) : null}
    </div>
  );
}
