/**
 * YAML frontmatter (pi `utils/frontmatter.ts`), parsed with the `yaml` library.
 */
import { parse } from "yaml";
import { stripBom } from "./fs-util";

/** Result of {@link parseFrontmatter}. */
export interface ParsedFrontmatter<T extends Record<string, unknown>> {
  frontmatter: T;
  body: string;
}

/** Parsed YAML by source text: `parse` is pure, so a process-wide memo is exact (values are cloned out). */
const yamlMemo = new Map<string, unknown>();
const YAML_MEMO_MAX = 4096;

function parseYamlMemo(text: string): unknown {
  if (yamlMemo.has(text)) return structuredClone(yamlMemo.get(text));
  const value = parse(text) as unknown;
  if (yamlMemo.size >= YAML_MEMO_MAX) yamlMemo.delete(yamlMemo.keys().next().value as string);
  yamlMemo.set(text, value);
  return structuredClone(value);
}

const normalizeNewlines = (value: string): string => value.replace(/\r\n/g, "\n").replace(/\r/g, "\n");

/**
 * Split markdown into YAML frontmatter and body (pi `parseFrontmatter`): the BOM is stripped and
 * CRLF/CR become LF; frontmatter exists only when the text starts with `---` and a later `\n---`
 * exists; the YAML between them is parsed; the body after the closing fence is trimmed. Without
 * frontmatter the body is the whole normalised text, untrimmed, and `frontmatter` is `{}`.
 *
 * `parseFrontmatter("\uFEFF---\r\nname: x\r\n---\r\n\r\nBody\r\n")` → `{ frontmatter: { name: "x" }, body: "Body" }`.
 * @throws the YAML parser's error (`YAMLParseError`) for invalid YAML.
 */
export function parseFrontmatter<T extends Record<string, unknown> = Record<string, unknown>>(
  content: string,
): ParsedFrontmatter<T> {
  const normalized = normalizeNewlines(stripBom(content));
  if (!normalized.startsWith("---")) return { frontmatter: {} as T, body: normalized };
  const end = normalized.indexOf("\n---", 3);
  if (end === -1) return { frontmatter: {} as T, body: normalized };
  const yamlString = normalized.slice(4, end);
  const body = normalized.slice(end + 4).trim();
  if (!yamlString) return { frontmatter: {} as T, body };
  const parsed = parseYamlMemo(yamlString);
  return { frontmatter: (parsed ?? {}) as T, body };
}

/** The body of {@link parseFrontmatter} (pi `stripFrontmatter`). @throws like `parseFrontmatter`. */
export function stripFrontmatter(content: string): string {
  return parseFrontmatter(content).body;
}
