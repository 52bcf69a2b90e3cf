"use client";

import { createFocusTrap } from "focus-trap";
import { type RefObject, useLayoutEffect, useRef, useState } from "react";

/**
 * Makes a modal dialog keep the keyboard (the `focus-trap` library): while `container` is mounted, Tab and
 * Shift+Tab cycle through its tabbable elements and focus cannot land outside it; nested dialogs stack (the inner
 * one pauses the outer). Call it near the top of the dialog's component, before its own focus effects.
 *
 * - Initial focus is left to the dialog: an element it focuses itself (`autoFocus`, or an effect focusing a field,
 *   a button or the dialog) keeps the focus; only when nothing inside has it does focus go to the first tabbable
 *   element, or to `container` when there is none (focus-trap would otherwise throw).
 * - Escape is not handled here (each dialog keeps its own Escape behaviour), and clicks outside pass through
 *   untouched (a backdrop that closes on click still does; one that does not still does not).
 * - On close (unmount) focus returns to `returnFocusTo` when given (e.g. a "⋯" menu's button, whose menu item
 *   opened the dialog and is gone), otherwise to the element that had focus when the dialog first rendered (the
 *   button that opened it), if it is still in the page — unless focus has meanwhile been put outside the dialog.
 */
export function useFocusTrap(
  container: RefObject<HTMLElement | null>,
  { returnFocusTo }: { returnFocusTo?: RefObject<HTMLElement | null> } = {},
): void {
  // Read during the first render: an autoFocus field inside has not taken focus yet.
  const [opener] = useState(() => (typeof document === "undefined" ? null : document.activeElement));
  const returnRef = useRef(returnFocusTo);
  returnRef.current = returnFocusTo;

  // A layout effect: the trap is active before any passive effect of the dialog moves focus into it.
  useLayoutEffect(() => {
    const node = container.current;
    if (!node) return;
    const trap = createFocusTrap(node, {
      fallbackFocus: node,
      escapeDeactivates: false,
      allowOutsideClick: true,
      returnFocusOnDeactivate: false,
    });
    trap.activate();
    return () => {
      const active = document.activeElement;
      const focusInside = !active || active === document.body || node.contains(active);
      trap.deactivate({ returnFocus: false });
      // After the commit: on a real close the dialog is out of the page; a StrictMode re-run keeps it.
      queueMicrotask(() => {
        if (node.isConnected || !focusInside) return;
        const now = document.activeElement;
        if (now && now !== document.body) return; // focus was put somewhere on purpose meanwhile
        const target = returnRef.current?.current ?? opener;
        if (target instanceof HTMLElement && target.isConnected) target.focus();
      });
    };
  }, [container, opener]);
}
