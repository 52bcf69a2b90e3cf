/**
 * Best-effort parse of a JSON object that is still streaming in (tool call arguments):
 * closes an open string and open brackets, drops a dangling comma or key. Returns null when
 * the text cannot be made into an object.
 */
export function parsePartialJsonObject(text: string): Record<string, unknown> | null {
  const asObject = (v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  try {
    return asObject(JSON.parse(text));
  } catch {
    // fall through to repair
  }
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") stack.push("}");
    else if (ch === "[") stack.push("]");
    else if (ch === "}" || ch === "]") stack.pop();
  }
  let repaired = text;
  if (inString) repaired += escaped ? '\\"' : '"';
  repaired = repaired.trimEnd();
  if (repaired.endsWith(",")) repaired = repaired.slice(0, -1);
  if (repaired.endsWith(":")) repaired += "null";
  repaired += stack.reverse().join("");
  try {
    return asObject(JSON.parse(repaired));
  } catch {
    return null;
  }
}
