import styles from "./share.module.css";
import type { Redaction } from "./share-api";
import { redactionWhere, ruleLabel } from "./view-model";

/** Every redaction of a preview: where, the rule (short name; the full id on hover), its kind, the redacted excerpt. */
export function RedactionTable({ redactions }: { redactions: readonly Redaction[] }) {
  if (redactions.length === 0)
    return (
      <p className={styles.muted}>
        No secrets found. Read through what you share anyway; add anything else below.
      </p>
    );
  return (
    <>
      <div className={styles.tableWrap}>
        <table className={styles.table} aria-label="Redactions">
          <thead>
            <tr>
              <th scope="col">Where</th>
              <th scope="col">Rule</th>
              <th scope="col">Kind</th>
              <th scope="col">Excerpt (redacted)</th>
            </tr>
          </thead>
          <tbody>
            {redactions.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a line can hold several redactions of one rule
              <tr key={i}>
                <td className={styles.where}>{redactionWhere(r.site)}</td>
                <td className={styles.rule} title={r.rule}>
                  {ruleLabel(r.rule)}
                </td>
                <td>{r.kind}</td>
                <td>
                  <code className={styles.excerpt}>{r.excerpt}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={styles.muted}>
        Secrets are found by their shape (secretlint&apos;s rules): one in no known shape, or a
        provider&apos;s documentation example such as AWS&apos;s <code>AKIAIOSFODNN7EXAMPLE</code>, is left as
        it is. Read through what you share; add anything else below.
      </p>
    </>
  );
}
