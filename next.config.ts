import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The pipeline routes run on the edge runtime: just-bash's browser build imports node:zlib, which the
  // edge runtime lacks, so it resolves to an fflate-backed shim.
  turbopack: {
    resolveAlias: {
      "node:zlib": "./lib/shims/node-zlib.ts",
    },
  },
  // ws: the Neon driver's WebSocket on the nodejs routes (app/api/projects, for the git import's guarded
  // transport), loaded from node_modules as is rather than bundled (its optional native add-ons are probed at runtime).
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "ws"],
  // `npm test` type-checks the whole repository (tsc --noEmit, strict) before building; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
