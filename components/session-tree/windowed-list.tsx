"use client";

import { type ReactNode, type Ref, useEffect, useLayoutEffect, useRef, useState } from "react";

/** Rows drawn beyond the visible ones, above and below (smooth scrolling without blank rows). */
const OVERSCAN = 8;

/** The row range to draw for a scroll position (fixed row height). */
export function windowRange(
  count: number,
  rowHeight: number,
  scrollTop: number,
  height: number,
): { start: number; end: number } {
  const first = Math.floor(scrollTop / rowHeight);
  const visible = Math.ceil(height / rowHeight) + 1;
  return { start: Math.max(0, first - OVERSCAN), end: Math.min(count, first + visible + OVERSCAN) };
}

/**
 * A list that renders only the rows in view (fixed `rowHeight`): a scroller holding a spacer of the full height and
 * the drawn rows positioned in it. `selected` is kept in view. Props other than the rows go to the scroller (its
 * role, label, key handler, `aria-activedescendant`).
 */
export function WindowedList({
  count,
  rowHeight,
  selected,
  renderRow,
  onPageSize,
  scrollerRef,
  ...rest
}: {
  count: number;
  rowHeight: number;
  selected: number;
  renderRow: (k: number, style: React.CSSProperties) => ReactNode;
  /** Called with how many rows fit (for page up/down). */
  onPageSize?: (rows: number) => void;
  scrollerRef?: Ref<HTMLDivElement>;
} & Omit<React.HTMLAttributes<HTMLDivElement>, "children">) {
  const el = useRef<HTMLDivElement | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);

  useLayoutEffect(() => {
    const node = el.current;
    if (!node) return;
    const measure = () => {
      setHeight(node.clientHeight || 400);
      onPageSize?.(Math.max(1, Math.floor((node.clientHeight || 400) / rowHeight)));
    };
    measure();
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    observer?.observe(node);
    return () => observer?.disconnect();
  }, [rowHeight, onPageSize]);

  // Keep the selected row in view.
  useEffect(() => {
    const node = el.current;
    if (!node || selected < 0 || selected >= count) return;
    const top = selected * rowHeight;
    if (top < node.scrollTop) node.scrollTop = top;
    else if (top + rowHeight > node.scrollTop + node.clientHeight)
      node.scrollTop = top + rowHeight - node.clientHeight;
    setScrollTop(node.scrollTop);
  }, [selected, count, rowHeight]);

  const { start, end } = windowRange(count, rowHeight, scrollTop, height);
  const rows: ReactNode[] = [];
  for (let k = start; k < end; k++)
    rows.push(
      renderRow(k, { position: "absolute", top: k * rowHeight, height: rowHeight, left: 0, right: 0 }),
    );
  return (
    <div
      {...rest}
      ref={(node) => {
        el.current = node;
        if (typeof scrollerRef === "function") scrollerRef(node);
        else if (scrollerRef) (scrollerRef as React.MutableRefObject<HTMLDivElement | null>).current = node;
      }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ position: "relative", height: count * rowHeight, minWidth: "100%" }}>{rows}</div>
    </div>
  );
}
