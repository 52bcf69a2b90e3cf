/**
 * CommonJS `require` of the project's own files for Strata's `node` (lib/exec/service/node-command.ts). js-exec's
 * `require` knows its built-in modules only, and its sandbox refuses `eval` and `new Function`, so a script's
 * `require("./lib")` cannot be loaded inside QuickJS. Instead the host reads the script's graph of relative
 * requires from the VFS before it runs — resolved as Node resolves them (`./lib`, `./lib.js`, `.cjs`, `.json`, a
 * directory's `package.json` `main` or `index.js`) — and hands js-exec one program holding every module as a
 * function of `(exports, require, module, __filename, __dirname)`, loaded and cached on first `require` as Node
 * does. A `require` whose argument is not a string literal, or a relative module that does not exist, throws Node's
 * `Cannot find module` when reached. Node-only.
 */

/** What the bundler needs of the shell's filesystem. */
export interface BundleFs {
  readFile(path: string): Promise<string>;
  stat(path: string): Promise<{ isFile: boolean; isDirectory: boolean }>;
}

/** Most modules and characters one bundle holds (a script's own code, not a node_modules tree). */
const MAX_MODULES = 500;
const MAX_CHARS = 8 * 1024 * 1024;

/** `require("./x")`, `require('../y')`, `require("/abs")`: a relative or absolute string literal. */
const RELATIVE_REQUIRE = /\brequire\s*\(\s*(["'])((?:\.{1,2}(?:\/|(?=\1))|\/)[^"'\n]*)\1\s*\)/g;

/** Whether `source` requires a file of the project (a relative or absolute path). */
export function requiresFiles(source: string): boolean {
  // A copy without the global flag: `test` on the shared one would move its `lastIndex`, which `matchAll` starts at.
  return new RegExp(RELATIVE_REQUIRE.source).test(source);
}

/** `dir` joined with `id`, `.` and `..` resolved (POSIX, absolute). */
export function joinPath(dir: string, id: string): string {
  const out: string[] = [];
  for (const part of (id.startsWith("/") ? id : `${dir}/${id}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

const dirOf = (file: string) => file.slice(0, file.lastIndexOf("/")) || "/";

async function isFile(fs: BundleFs, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Node's resolution of a file module at `base`: the file, with `.js`/`.cjs`/`.json`, or the directory's entry. */
async function resolveFile(fs: BundleFs, base: string, depth = 0): Promise<string | null> {
  for (const p of [base, `${base}.js`, `${base}.cjs`, `${base}.json`]) if (await isFile(fs, p)) return p;
  if (depth < 2 && (await isFile(fs, `${base}/package.json`))) {
    try {
      const main = (JSON.parse(await fs.readFile(`${base}/package.json`)) as { main?: unknown }).main;
      if (typeof main === "string") {
        const found = await resolveFile(fs, joinPath(base, main), depth + 1);
        if (found) return found;
      }
    } catch {
      // An unreadable package.json: Node falls back to index.js too.
    }
  }
  for (const p of [`${base}/index.js`, `${base}/index.cjs`, `${base}/index.json`])
    if (await isFile(fs, p)) return p;
  return null;
}

/**
 * The program that runs `main` (an absolute path) with its graph of relative requires, or null when the graph is
 * past the bundle's bounds (500 modules, 8 M characters: js-exec then runs the file as it is). The program puts
 * `main` in `process.argv` after `node`, as Node does for a script.
 */
export async function bundleCommonJs(fs: BundleFs, main: string): Promise<string | null> {
  const sources = new Map<string, string>();
  const links = new Map<string, Record<string, string>>();
  const queue = [main];
  let chars = 0;
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (sources.has(file)) continue;
    const source = await fs.readFile(file);
    chars += source.length;
    if (sources.size >= MAX_MODULES || chars > MAX_CHARS) return null;
    sources.set(file, source);
    const own: Record<string, string> = {};
    if (!file.endsWith(".json"))
      for (const m of source.matchAll(RELATIVE_REQUIRE)) {
        const target = await resolveFile(fs, joinPath(dirOf(file), m[2]));
        if (target) {
          own[m[2]] = target;
          queue.push(target);
        }
      }
    links.set(file, own);
  }
  const defs = [...sources].map(([file, source]) => {
    const body = file.endsWith(".json")
      ? JSON.stringify(source)
      : `function (exports, require, module, __filename, __dirname) {${source.startsWith("#!") ? "//" : ""}${source}\n}`;
    return `${JSON.stringify(file)}: ${body}`;
  });
  return `(function () {
const defs = {${defs.join(",\n")}};
const links = ${JSON.stringify(Object.fromEntries(links))};
const builtin = globalThis.require;
const cache = Object.create(null);
process.argv.splice(1, 0, ${JSON.stringify(main)});
const dirOf = (f) => f.slice(0, f.lastIndexOf("/")) || "/";
let mainModule = null;
function load(file, parent) {
  if (cache[file]) return cache[file].exports;
  const module = { id: parent ? file : ".", filename: file, exports: {}, loaded: false, parent, children: [] };
  cache[file] = module;
  if (!parent) mainModule = module;
  if (parent) parent.children.push(module);
  const def = defs[file];
  if (typeof def === "string") module.exports = JSON.parse(def);
  else def.call(module.exports, module.exports, requireFrom(module), module, file, dirOf(file));
  module.loaded = true;
  return module.exports;
}
function requireFrom(module) {
  const require = (id) => {
    const target = links[module.filename][id];
    if (target) return load(target, module);
    if (typeof id === "string" && /^(\\.{1,2}(\\/|$)|\\/)/.test(id)) {
      const error = new Error("Cannot find module '" + id + "'\\nRequire stack:\\n- " + module.filename);
      error.code = "MODULE_NOT_FOUND";
      throw error;
    }
    return builtin(id);
  };
  require.cache = cache;
  require.main = mainModule;
  return require;
}
load(${JSON.stringify(main)}, null);
})();
`;
}
