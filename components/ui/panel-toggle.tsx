"use client";

/** The disclosure button of a collapsible pane section (Context, History): `▸ Label` / `▾ Label`. */
export function PanelToggle({
  label,
  open,
  controls,
  onToggle,
}: {
  label: string;
  open: boolean;
  /** Id of the element it shows and hides. */
  controls: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className="context-toggle"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <span aria-hidden="true">{open ? "▾" : "▸"}</span> {label}
    </button>
  );
}
