/**
 * The share page renderer (lib/share/render) on a 2,000-entry path — prompts, markdown answers, tool calls with
 * results — in both modes: what `GET /s/<token>` and the HTML export spend besides the database. Target: ≤ 1,500 ms
 * (the page is rendered on every visit; it is never cached).
 */
import { renderShareDocument } from "@/lib/share/render/document";
import { longEntries, snapshotOf } from "../../tests/unit/share/render-fixture";
import type { BenchContext, BenchSection } from "../context";

const RUNS = 10;

export const shareRenderSection: BenchSection = {
  name: "share-render",
  async run(ctx: BenchContext) {
    const snapshot = snapshotOf(longEntries(2000));
    const page = {
      mode: "page" as const,
      token: "t".repeat(32),
      createdAt: "2026-01-01T00:00:00Z",
      expiresAt: null,
    };
    renderShareDocument(snapshot, page); // warm up
    const pages: number[] = [];
    const exports: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      pages.push(await ctx.time(async () => renderShareDocument(snapshot, page)));
      exports.push(await ctx.time(async () => renderShareDocument(snapshot, { mode: "export" })));
    }
    ctx.report("share page, 2,000 entries", pages, 1500);
    ctx.report("share export, 2,000 entries", exports, 1500);
  },
};
