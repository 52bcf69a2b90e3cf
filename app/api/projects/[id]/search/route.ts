import { z } from "zod";
import { withProject } from "@/lib/http/access";
import { ApiError, route } from "@/lib/http/errors";
import { SEARCH_MAX_QUERY, SearchPatternError, searchProject } from "@/lib/projects/search";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const SearchQuery = z.object({
  q: z.string().min(1).max(SEARCH_MAX_QUERY),
  regex: z.enum(["0", "1"]).default("0"),
  case: z.enum(["0", "1"]).default("0"),
});

/**
 * Search the project's text files (the grep tool's engine: `.gitignore` respected): `?q=` the text or pattern,
 * `regex=1` a regular expression, `case=1` case-sensitive. 200 `SearchResult` (lib/projects/search.ts), grouped by
 * file and capped (`capped` says so); 400 `invalid_regex` with the parser's message.
 */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withProject(req, id, "read", async ({ project, vfs }) => {
    const query = SearchQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
    try {
      const result = await searchProject(vfs, project.rootPath, {
        query: query.q,
        regex: query.regex === "1",
        caseSensitive: query.case === "1",
      });
      return Response.json(result);
    } catch (error) {
      if (error instanceof SearchPatternError) throw new ApiError(400, "invalid_regex", error.message);
      throw error;
    }
  });
});
