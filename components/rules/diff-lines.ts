/** Unified diff text as display lines (pure; the proposal page renders them in diff-view.tsx). */
export type DiffLineKind = "add" | "del" | "context" | "hunk" | "meta";

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** Line number in the old file (context and removed lines). */
  oldLine?: number;
  /** Line number in the new file (context and added lines). */
  newLine?: number;
}

/**
 * The lines of a unified diff to show: file headers (`===`, `---`, `+++`, `Index:`) dropped, `@@` hunks with
 * line numbers counted from their header, `\ No newline at end of file` kept as a meta line.
 */
export function parsePatch(patch: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      inHunk = true;
      out.push({ kind: "hunk", text: line });
    } else if (!inHunk) {
      // Headers before the first hunk.
    } else if (line.startsWith("+")) {
      out.push({ kind: "add", text: line, newLine: newNo++ });
    } else if (line.startsWith("-")) {
      out.push({ kind: "del", text: line, oldLine: oldNo++ });
    } else if (line.startsWith("\\")) {
      out.push({ kind: "meta", text: line });
    } else {
      out.push({ kind: "context", text: line, oldLine: oldNo++, newLine: newNo++ });
    }
  }
  return out;
}
