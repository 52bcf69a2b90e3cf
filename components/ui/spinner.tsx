/** A small inline activity indicator with an accessible label. */
export function Spinner({ label = "Loading" }: { label?: string }) {
  return <span className="spinner" role="img" aria-label={label} />;
}
