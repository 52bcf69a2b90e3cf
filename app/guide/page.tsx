import fs from "node:fs";
import path from "node:path";
import type { Metadata } from "next";
import { GuideMarkdown } from "@/components/guide/guide-markdown";

// Read once at build time from docs/guide.md (the same text a code host shows); public, like the sign-in page.
export const runtime = "nodejs";
export const dynamic = "force-static";
export const metadata: Metadata = { title: "Guide · Strata" };

/** `/guide`: the user guide (docs/guide.md) with its screenshots (public/guide/), and a way back to the app. */
export default function GuidePage() {
  const text = fs.readFileSync(path.join(process.cwd(), "docs/guide.md"), "utf8");
  return (
    <main>
      <p style={{ padding: "12px 24px 0" }}>
        <a href="/">← Back to Strata</a>
      </p>
      <GuideMarkdown text={text} />
    </main>
  );
}
