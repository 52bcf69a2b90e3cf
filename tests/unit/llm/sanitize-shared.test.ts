/**
 * `sanitizeShared` (lib/llm/transform-messages.ts): equal to `sanitizeDeep` on random JSON full of surrogates
 * (a property), a `__proto__` key kept as an own property, only the path to a changed string copied, and
 * `transformMessages` leaving a stored history untouched.
 *
 * Property runs and seed: tests/helpers/property.ts (2,000 values; × STRATA_PROPERTY_RUNS / 1,000 in
 * `npm run test:property:deep`); a failure prints the seed and the command that replays it
 * (`STRATA_PROPERTY_SEED=<seed>`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeDeep, sanitizeShared, transformMessages } from "@/lib/llm/transform-messages";
import type { Message } from "@/lib/llm/types";
import { propertyParameters } from "../../helpers/property";

/** Strings that often hold lone or paired surrogates. */
const text = fc.oneof(fc.string(), fc.constantFrom("\uD83D\uDE00", "\uD83D", "\uDE00x", "a\uD800b", "ok"));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(text, tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("sanitizeShared", () => {
  it("equals sanitizeDeep, never changes its input, and shares what had no unpaired surrogate", () => {
    fc.assert(
      fc.property(json, (value) => {
        const before = JSON.stringify(value);
        const out = sanitizeShared(value);
        expect(out).toEqual(sanitizeDeep(value));
        expect(JSON.stringify(value)).toBe(before);
        if (JSON.stringify(sanitizeDeep(value)) === before) expect(out).toBe(value);
      }),
      propertyParameters({ numRuns: 2000 }),
    );
  });

  it("keeps a `__proto__` key as an own property (as JSON.parse does), never as the prototype", () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":"x\uD800"}');
    for (const out of [sanitizeDeep(value), sanitizeShared(value)]) {
      expect(Object.keys(out)).toEqual(["__proto__", "a"]);
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect((out as { polluted?: boolean }).polluted).toBeUndefined();
      expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"a":"x\uFFFD"}');
    }
    const clean = JSON.parse('{"__proto__":null}');
    expect(JSON.stringify(sanitizeDeep(clean))).toBe('{"__proto__":null}');
    expect(sanitizeShared(clean)).toBe(clean);
  });

  it("copies only the path to a changed string", () => {
    const clean = { type: "text", text: "fine" };
    const input = [{ role: "user", content: [clean, { type: "text", text: "bad \uD800" }] }];
    const out = sanitizeShared(input);
    expect(out[0].content[0]).toBe(clean);
    expect(out[0].content[1]).toEqual({ type: "text", text: "bad \uFFFD" });
    expect(input[0].content[1].text).toBe("bad \uD800");
  });

  it("transformMessages leaves a stored history untouched and shares untouched messages", () => {
    const user: Message = { role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 };
    const history: Message[] = [user];
    const snapshot = structuredClone(history);
    const out = transformMessages(history, {
      provider: "anthropic",
      api: "anthropic-messages",
      id: "claude-sonnet-4-5",
      input: ["text", "image"],
    });
    expect(history).toEqual(snapshot);
    expect(out[0]).toBe(user);
  });
});
