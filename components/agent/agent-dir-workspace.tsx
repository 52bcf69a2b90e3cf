"use client";

import Link from "next/link";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import {
  deleteAgentFile,
  describeError,
  getAgentTree,
  readAgentFile,
  type TreeEntry,
  writeAgentFile,
} from "@/components/api-client";
import { EditorPane } from "@/components/editor/editor-pane";
import { type FileIo, useOpenFiles } from "@/components/editor/use-open-files";
import { type DeleteTarget, isAtOrBelow, useTreeDelete } from "@/components/tree/delete-entry";
import { FileTree } from "@/components/tree/file-tree";
import { FilesPaneTitle } from "@/components/tree/files-pane-title";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";

const agentIo: FileIo = { read: (path) => readAgentFile(path), write: writeAgentFile };
const NO_CHANGES: ReadonlySet<string> = new Set();

/**
 * The user's agent dir (pi `~/.pi/agent`: AGENTS.md, SYSTEM.md, APPEND_SYSTEM.md, skills/, prompts/)
 * in the IDE's tree and editor, plus a form to create a file; files and folders can be deleted from the tree
 * (with a confirmation; open tabs of what was deleted close).
 */
export function AgentDirWorkspace() {
  const [entries, setEntries] = useState<TreeEntry[] | null>(null);
  const [root, setRoot] = useState("/.pi/agent");
  const [error, setError] = useState<string | null>(null);
  const [newPath, setNewPath] = useState("");
  const [creating, setCreating] = useState(false);
  const files = useOpenFiles(agentIo);

  const refresh = useCallback(async (signal?: AbortSignal) => {
    try {
      const tree = await getAgentTree(signal);
      setEntries(tree.entries);
      setRoot(tree.root);
      setError(null);
    } catch (err) {
      if (!signal?.aborted) setError(describeError(err));
    }
  }, []);

  useEffect(() => {
    const ctrl = new AbortController();
    void refresh(ctrl.signal);
    document.title = "Agent dir · Strata";
    return () => ctrl.abort();
  }, [refresh]);

  const { files: openFiles, close } = files;
  const onDeleted = useCallback(
    (target: DeleteTarget) => {
      for (const f of openFiles) if (isAtOrBelow(f.path, target.path)) close(f.path);
      void refresh();
    },
    [openFiles, close, refresh],
  );
  const remover = useTreeDelete(deleteAgentFile, onDeleted);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const path = newPath.trim().replace(/^\/+/, "");
    if (!path) return;
    setCreating(true);
    try {
      if (!entries?.some((x) => x.path === path)) await writeAgentFile(path, "");
      setNewPath("");
      await refresh();
      files.open(path);
    } catch (err) {
      setError(`Could not create ${path}: ${describeError(err)}`);
    } finally {
      setCreating(false);
    }
  };

  return (
    <div className="workspace agent-workspace">
      <header className="workspace-header">
        <Link href="/" className="brand">
          Strata
        </Link>
        <span className="sep">/</span>
        <h1 className="project-name">Agent dir</h1>
        <span className="muted mono">~{root}</span>
      </header>
      <nav className="tree-pane" aria-label="Agent dir files">
        <FilesPaneTitle onRefresh={() => void refresh()} />
        <form className="new-file" onSubmit={(e) => void create(e)}>
          <input
            type="text"
            aria-label="New file path"
            placeholder="skills/name/SKILL.md"
            value={newPath}
            onChange={(e) => setNewPath(e.target.value)}
          />
          <button type="submit" className="btn btn-small" disabled={creating || !newPath.trim()}>
            Create
          </button>
        </form>
        {error ? (
          <Notice kind="error" title="Agent dir">
            {error}
          </Notice>
        ) : null}
        {entries ? (
          entries.length === 0 ? (
            <p className="muted tree-empty">
              Empty. Create AGENTS.md, SYSTEM.md, APPEND_SYSTEM.md, skills/&lt;name&gt;/SKILL.md or
              prompts/&lt;name&gt;.md.
            </p>
          ) : (
            <FileTree
              entries={entries}
              selectedPath={files.active?.path ?? null}
              changedPaths={NO_CHANGES}
              onOpenFile={files.open}
              onDelete={remover.request}
            />
          )
        ) : error ? null : (
          <Spinner label="Loading files" />
        )}
      </nav>
      <EditorPane files={files} />
      {remover.dialog}
    </div>
  );
}
