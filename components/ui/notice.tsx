import type { ReactNode } from "react";

export type NoticeKind = "info" | "warning" | "error";

/** A boxed message. Errors are announced (`role="alert"`), others are polite status messages. */
export function Notice({
  kind = "info",
  title,
  children,
  actions,
}: {
  kind?: NoticeKind;
  title?: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      <div className="notice-body">
        {title ? <strong className="notice-title">{title}</strong> : null}
        {children}
      </div>
      {actions ? <div className="notice-actions">{actions}</div> : null}
    </div>
  );
}
