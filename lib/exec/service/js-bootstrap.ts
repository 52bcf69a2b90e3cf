/**
 * The bootstrap code just-bash runs before every `js-exec` (and so `node`) script in the service's shell
 * (`javascript.bootstrap`, lib/exec/service/shell-runtimes.ts), filling gaps between QuickJS's host and Node that
 * scripts commonly hit:
 * - `process.argv` in Node's shape: `["node", <absolute script path>, ...args]` (`["node", ...args]` for `-c`/`-e`
 *   code and stdin) instead of js-exec's `[<script path or "-c">, ...args]`, so `process.argv.slice(2)` is the
 *   script's arguments.
 * - `setTimeout`/`setInterval`/`setImmediate` (and their `clear…`), which js-exec lacks, on a virtual clock: callbacks
 *   run in the order of their due time, each after the script's pending promise jobs, without waiting (QuickJS has
 *   no real timers here); `Date.now()` does not move with them. A never-cleared interval runs until the runtime's
 *   deadline stops it.
 * - `process.stdout.write`/`process.stderr.write` over `console.log`/`console.error` (the only outputs js-exec has):
 *   complete lines at once, a last partial line after the current job (or at `process.exit`), ending in a newline.
 * Plain JavaScript evaluated inside QuickJS (no host access beyond what js-exec gives every script).
 */
export const JS_BOOTSTRAP = `(() => {
  const a = process.argv;
  const s = a[0];
  const code = s === "-c" || s === "js-exec" || s === "<stdin>" || s === "-";
  const cwd = process.cwd().replace(/\\/+$/, "");
  process.argv = code ? ["node", ...a.slice(1)] : ["node", s.startsWith("/") ? s : cwd + "/" + s, ...a.slice(1)];

  const timers = [];
  let seq = 0;
  let now = 0;
  let running = false;
  const step = () => {
    if (timers.length === 0) {
      running = false;
      return;
    }
    timers.sort((x, y) => x.at - y.at || x.seq - y.seq);
    const t = timers.shift();
    now = Math.max(now, t.at);
    if (t.every !== undefined) timers.push({ ...t, at: now + t.every, seq: ++seq });
    try {
      t.fn(...t.args);
    } finally {
      Promise.resolve().then(step);
    }
  };
  const add = (fn, ms, args, every) => {
    if (typeof fn !== "function") throw new TypeError('The "callback" argument must be of type function');
    const id = ++seq;
    timers.push({ id, seq: id, fn, args, every, at: now + Math.max(0, Number(ms) || 0) });
    if (!running) {
      running = true;
      Promise.resolve().then(step);
    }
    return id;
  };
  const clear = (id) => {
    for (let i = timers.length - 1; i >= 0; i--) if (timers[i].id === id) timers.splice(i, 1);
  };
  globalThis.setTimeout = (fn, ms, ...args) => add(fn, ms, args);
  globalThis.setInterval = (fn, ms, ...args) => add(fn, ms, args, Math.max(1, Number(ms) || 0));
  globalThis.setImmediate = (fn, ...args) => add(fn, 0, args);
  globalThis.clearTimeout = clear;
  globalThis.clearInterval = clear;
  globalThis.clearImmediate = clear;

  const stream = (print) => {
    let pending = "";
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      if (pending !== "") print(pending);
      pending = "";
    };
    return {
      flush,
      write(chunk) {
        pending += typeof chunk === "string" ? chunk : String(chunk);
        const end = pending.lastIndexOf("\\n");
        if (end >= 0) {
          print(pending.slice(0, end));
          pending = pending.slice(end + 1);
        }
        if (pending !== "" && !scheduled) {
          scheduled = true;
          Promise.resolve().then(flush);
        }
        return true;
      },
    };
  };
  const out = stream((text) => console.log(text));
  const err = stream((text) => console.error(text));
  process.stdout = { write: out.write, isTTY: false };
  process.stderr = { write: err.write, isTTY: false };
  const exit = process.exit;
  process.exit = (status) => {
    out.flush();
    err.flush();
    return exit(status);
  };
})();`;
