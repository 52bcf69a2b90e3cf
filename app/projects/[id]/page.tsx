import { ProjectWorkspace } from "@/components/projects/project-workspace";

export const dynamic = "force-dynamic";

export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ProjectWorkspace key={id} projectId={id} />;
}
