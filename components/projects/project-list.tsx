import Link from "next/link";
import type { Project } from "@/components/api-client";
import { formatDateTime } from "@/components/ui/format";
import styles from "./lifecycle.module.css";
import type { DeletedProject } from "./lifecycle-client";
import { ProjectActions } from "./project-actions";

/** The imported projects, newest first, each linking to its IDE page, with Rename and Delete (not `readOnly`). */
export function ProjectList({
  projects,
  readOnly = false,
  onRenamed,
  onDeleted,
}: {
  projects: Project[];
  /** The caller's role cannot change projects: no Rename/Delete. */
  readOnly?: boolean;
  onRenamed: (project: Project) => void;
  onDeleted: (deleted: DeletedProject) => void;
}) {
  if (projects.length === 0) {
    return (
      <p className="muted">
        {readOnly ? "No projects yet." : "No projects yet. Import one from a git URL or an archive."}
      </p>
    );
  }
  const sorted = [...projects].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
  return (
    <ul className={`project-list ${styles.list}`} aria-label="Projects">
      {sorted.map((p) => (
        <li key={p.id} className={styles.row}>
          <Link href={`/projects/${encodeURIComponent(p.id)}`} className="project-link">
            {p.name}
          </Link>
          <span className="muted mono">{p.rootPath}</span>
          <span className="muted">{formatDateTime(p.createdAt)}</span>
          {readOnly ? null : <ProjectActions project={p} onRenamed={onRenamed} onDeleted={onDeleted} />}
        </li>
      ))}
    </ul>
  );
}
