import { notFound } from "next/navigation";
import { AppHeader } from "@/components/account/app-header";
import { ConfigBanner } from "@/components/projects/config-banner";
import { ProjectsHome } from "@/components/projects/projects-home";
import { roleAllows } from "@/lib/auth/roles";
import { withDb } from "@/lib/db/client";
import { listPageWorkspaces, requirePageCaller } from "@/lib/http/page-caller";

export const dynamic = "force-dynamic";

/**
 * The projects of one workspace: `/?workspace=<id>` (default: the caller's personal workspace). Signed-out
 * visitors are sent to sign in (lib/http/page-caller.ts); a workspace the caller is not a member of answers the
 * 404 page, as one that does not exist.
 */
export default async function HomePage({
  searchParams,
}: {
  searchParams: Promise<{ workspace?: string | string[] }>;
}) {
  const { workspace } = await searchParams;
  const asked = typeof workspace === "string" && workspace !== "" ? workspace : null;
  const path = asked ? `/?workspace=${encodeURIComponent(asked)}` : "/";
  const { caller, mode, workspaces } = await withDb(async (scope) => {
    const found = await requirePageCaller(scope, path);
    return { ...found, workspaces: await listPageWorkspaces(scope, found.caller.userId) };
  });
  const current = asked
    ? workspaces.find((w) => w.id === asked)
    : workspaces.find((w) => w.kind === "personal");
  if (!current) notFound();
  return (
    <>
      <AppHeader
        caller={{ id: caller.userId, email: caller.email, name: caller.name }}
        workspaces={workspaces}
        currentWorkspaceId={current.id}
        mode={mode}
      />
      <main className="home">
        <header className="home-header">
          <h1>{current.kind === "personal" ? "Personal workspace" : current.name}</h1>
          <p className="muted">
            {current.kind === "personal"
              ? "Only you can see these projects"
              : `Team workspace · your role: ${current.role}`}
          </p>
        </header>
        <ConfigBanner workspaceId={current.id} />
        <ProjectsHome
          key={current.id}
          workspaceId={current.id}
          readOnlyNote={
            roleAllows(current.role, "write")
              ? null
              : `You are a ${current.role} in ${current.name}: you can open and read its projects. Ask an owner or admin of the team for member access to import, rename or delete projects.`
          }
        />
      </main>
    </>
  );
}
