import Link from "next/link";
import type { ImportResponse } from "@/components/api-client";
import { formatBytes } from "@/components/ui/format";

/** The result of an import: counts, skipped entries with reasons, and a link to the project. */
export function ImportReportView({ result }: { result: ImportResponse }) {
  const { project, report } = result;
  return (
    <section className="import-report" aria-label="Import report">
      <p role="status">
        Imported <strong>{project.name}</strong>: {report.files} file{report.files === 1 ? "" : "s"},{" "}
        {formatBytes(report.bytes)}
        {report.skipped.length > 0 ? `, ${report.skipped.length} skipped` : ""}.{" "}
        <Link href={`/projects/${encodeURIComponent(project.id)}`}>Open {project.name}</Link>
      </p>
      {report.skipped.length > 0 ? (
        <details open={report.skipped.length <= 10}>
          <summary>Skipped ({report.skipped.length})</summary>
          <table className="skipped-table">
            <thead>
              <tr>
                <th scope="col">Path</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {report.skipped.map((s) => (
                <tr key={`${s.path}\0${s.reason}`}>
                  <td className="mono">{s.path}</td>
                  <td>{s.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </section>
  );
}
