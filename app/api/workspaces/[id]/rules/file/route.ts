import { withWorkspace } from "@/lib/http/access";
import { FILE_JSON_LIMIT, readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { badRequest, route } from "@/lib/http/errors";
import { lastChange, readRulesFile, writeRulesFiles } from "@/lib/rules";
import { requireDirectChange, rulesUser } from "@/lib/rules/access";
import { DeleteFileBody, WriteFileBody } from "@/lib/rules/api-schemas";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

function pathOf(req: Request): string {
  const path = new URL(req.url).searchParams.get("path");
  if (!path)
    throw badRequest("query parameter 'path' is required (a path in the rules root, e.g. AGENTS.md)");
  return path;
}

/** One file of main → `{ path, content, lastChange }` (read); 404 when missing. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(req, id, "read", async ({ scope }) =>
    Response.json(await readRulesFile(scope, id, pathOf(req))),
  );
});

/** Write a file and commit it on main as the caller: `{ content, message? }` → `{ path, oid, changed, lastChange }` (manage). */
export const PUT = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(req, id, "read", async ({ scope, caller, access }) => {
    requireDirectChange(access);
    const path = pathOf(req);
    const body = WriteFileBody.parse(await readJson(req, { limit: FILE_JSON_LIMIT }));
    const result = await writeRulesFiles(
      scope,
      id,
      rulesUser(caller),
      [{ path, content: body.content }],
      body.message ?? "",
    );
    return Response.json({ path, ...result, lastChange: await lastChange(scope, id, path) });
  });
});

/** Delete a file and commit that on main as the caller (optional body `{ message }`) → `{ path, oid, changed }` (manage). */
export const DELETE = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(req, id, "read", async ({ scope, caller, access }) => {
    requireDirectChange(access);
    const path = pathOf(req);
    const hasBody = req.headers.get("content-type") !== null;
    const body = hasBody
      ? DeleteFileBody.parse(await readJson(req, { limit: SMALL_JSON_LIMIT, empty: {} }))
      : {};
    const result = await writeRulesFiles(
      scope,
      id,
      rulesUser(caller),
      [{ path, content: null }],
      body.message ?? `Delete ${path}`,
    );
    return Response.json({ path, ...result });
  });
});
