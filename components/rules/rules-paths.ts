/** Client-side checks of a new rules file's path, mirroring lib/rules `cleanRulesPath` (the server decides). */

const HINT = "Use a relative path inside the rules root such as AGENTS.md or skills/review/SKILL.md.";

/**
 * `raw` as a clean relative path of the rules root (a leading "/" or "./" dropped), or the reason it cannot be one.
 */
export function cleanNewRulesPath(raw: string): { path: string } | { problem: string } {
  const path = raw
    .trim()
    .replace(/^\/+/, "")
    .replace(/^(\.\/)+/, "");
  if (path === "") return { problem: `Type a path. ${HINT}` };
  if (/[\u0000-\u001f\u007f-\u009f]/.test(path))
    return { problem: `The path contains control characters. ${HINT}` };
  if (path.includes("\\")) return { problem: `Use / between folders, not a backslash. ${HINT}` };
  if (path.endsWith("/")) return { problem: `Name the file, not only its folder. ${HINT}` };
  for (const part of path.split("/")) {
    if (part === "" || part === "." || part === "..")
      return { problem: `A path part must not be empty, "." or "..". ${HINT}` };
    if (part.toLowerCase() === ".git") return { problem: `.git is managed by Strata. ${HINT}` };
  }
  return { path };
}
