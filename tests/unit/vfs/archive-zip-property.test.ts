/**
 * Properties of the zip reader over generated archives: any well-formed layout reads back byte for byte;
 * a second directory record pointing at any entry is refused as an overlap naming both; the declared
 * total is refused exactly when it exceeds the limit.
 *
 * Property runs and seed: tests/helpers/property.ts (60, 60 and 100 archives; × STRATA_PROPERTY_RUNS / 1,000 in
 * `npm run test:property:deep`); a failure prints the seed and the command that replays it
 * (`STRATA_PROPERTY_SEED=<seed>`).
 */
import fc from "fast-check";
import { deflateSync } from "fflate";
import { describe, expect, it } from "vitest";
import { DEFAULT_ARCHIVE_LIMITS, REFUSED } from "@/lib/vfs/archive-limits";
import { openZip } from "@/lib/vfs/archive-zip";
import { propertyParameters } from "../../helpers/property";
import { type CentralRecord, craftZip, type LocalEntry } from "../../helpers/zip-craft";

const entriesArb = fc
  .uniqueArray(fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8}){0,2}\.txt$/), { minLength: 1, maxLength: 12 })
  .chain((names) =>
    fc.tuple(
      fc.constant(names),
      fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: names.length, maxLength: names.length }),
      fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length }),
    ),
  )
  .map(([names, contents, deflate]) => ({
    contents,
    locals: names.map(
      (name, i): LocalEntry => ({
        name,
        data: deflate[i] ? deflateSync(contents[i]) : contents[i],
        method: deflate[i] ? 8 : 0,
        size: contents[i].length,
      }),
    ),
  }));

describe("openZip properties", () => {
  it("reads every well-formed layout back byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(entriesArb, async ({ locals, contents }) => {
        const source = openZip(craftZip(locals), "p.zip", DEFAULT_ARCHIVE_LIMITS);
        const read = new Map<string, number[]>();
        await source.readData(new Set(source.entries.map((e) => e.index)), async (entry, data) => {
          read.set(entry.name, Array.from(data));
        });
        expect(read).toEqual(new Map(locals.map((l, i) => [l.name, Array.from(contents[i])])));
      }),
      propertyParameters({ numRuns: 60 }),
    );
  });

  it("refuses a second directory record for any entry, naming it and the entry it overlaps", () => {
    fc.assert(
      fc.property(entriesArb, fc.nat(), ({ locals }, pick) => {
        const k = pick % locals.length;
        const central: CentralRecord[] = [
          ...locals.map((l, i) => ({ name: l.name, local: i })),
          { name: "dup.bin", local: k },
        ];
        expect(() => openZip(craftZip(locals, central), "d.zip", DEFAULT_ARCHIVE_LIMITS)).toThrow(
          REFUSED.overlap("dup.bin", locals[k].name).message,
        );
      }),
      propertyParameters({ numRuns: 60 }),
    );
  });

  it("refuses the declared total exactly when it is over the limit", () => {
    const kernel = deflateSync(new Uint8Array(8));
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 40_000 }),
        (sizes, limit) => {
          const locals = sizes.map((size, i) => ({ name: `f${i}`, data: kernel, size }));
          const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxTotalBytes: limit };
          const total = sizes.reduce((n, s) => n + s, 0);
          const run = () => openZip(craftZip(locals), "t.zip", limits);
          if (total > limit) expect(run).toThrow(REFUSED.tooLarge(limit).message);
          else expect(run().entries.map((e) => e.size)).toEqual(sizes);
        },
      ),
      propertyParameters({ numRuns: 100 }),
    );
  });
});
