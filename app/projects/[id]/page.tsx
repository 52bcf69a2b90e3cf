import { notFound } from "next/navigation";
import { ProjectWorkspace } from "@/components/projects/project-workspace";
import { withDb } from "@/lib/db/client";
import { getProject } from "@/lib/projects/projects";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The IDE for one project; an unknown (or malformed) project id answers Strata's 404 page. */
export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!(await withDb((scope) => getProject(scope, id)))) notFound();
  return <ProjectWorkspace key={id} projectId={id} />;
}
