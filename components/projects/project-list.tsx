import Link from "next/link";
import type { Project } from "@/components/api-client";
import { formatDateTime } from "@/components/ui/format";

/** The imported projects, newest first, each linking to its IDE page. */
export function ProjectList({ projects }: { projects: Project[] }) {
  if (projects.length === 0) {
    return <p className="muted">No projects yet. Import one from a git URL or an archive.</p>;
  }
  const sorted = [...projects].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
  return (
    <ul className="project-list" aria-label="Projects">
      {sorted.map((p) => (
        <li key={p.id}>
          <Link href={`/projects/${encodeURIComponent(p.id)}`} className="project-link">
            {p.name}
          </Link>
          <span className="muted mono">{p.rootPath}</span>
          <span className="muted">{formatDateTime(p.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}
