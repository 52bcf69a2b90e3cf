/**
 * The size rule of docs/architecture.md ("Sizes"): no `lib/` file over {@link MAX_FILE_LINES} lines and no function
 * over {@link MAX_FUNCTION_LINES} lines, counted from the line a function starts on to the line it ends on (function
 * declarations, methods, function expressions and arrow functions alike, nested ones too), except the ones the
 * section lists with a reason.
 */
import ts from "typescript";

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

/** One unit over its limit: a file (`name` null) or a function of it. `lines` counts both ends. */
export interface Oversize {
  file: string;
  name: string | null;
  lines: number;
}

/** The name a function is known by: its own, its variable's or property's, else `<anonymous>`. */
function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  return "<anonymous>";
}

/** The file and the functions of `text` (the source of `file`) that exceed the limits. */
export function oversizes(file: string, text: string): Oversize[] {
  const out: Oversize[] = [];
  const fileLines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (fileLines > MAX_FILE_LINES) out.push({ file, name: null, lines: fileLines });
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > MAX_FUNCTION_LINES)
        out.push({ file, name: functionName(node), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * The exceptions the "Sizes" section of `markdown` lists, as `file` or `file#function` keys: list items that start
 * with a code span naming the file, optionally followed by one naming the function (`- \`lib/x.ts\` \`run\`: why`).
 */
export function listedExceptions(markdown: string): Set<string> {
  const section = /^## Sizes\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown);
  if (!section) throw new Error('docs/architecture.md has no "## Sizes" section');
  const keys = new Set<string>();
  for (const m of section[1].matchAll(/^- `([^`]+)`(?: `([^`]+)`)?/gm))
    keys.add(m[2] ? `${m[1]}#${m[2]}` : m[1]);
  return keys;
}

/** `file` or `file#function`: how an oversize is named in the exceptions list. */
export function oversizeKey(o: Oversize): string {
  return o.name === null ? o.file : `${o.file}#${o.name}`;
}
