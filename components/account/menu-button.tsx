"use client";

import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./account.module.css";

/**
 * A WAI-ARIA menu button: a real `<button aria-haspopup="menu">` that opens a `role="menu"` popup whose
 * children are `role="menuitem"` links or buttons. Keyboard: Enter/Space/ArrowDown open it on the first item,
 * ArrowUp on the last; inside, ArrowUp/ArrowDown/Home/End move, Escape closes and returns focus to the button,
 * Tab closes. A click outside closes it. `children` gets a `close()` to call after an item acts.
 */
export function MenuButton({
  label,
  buttonContent,
  buttonClassName,
  align = "right",
  children,
}: {
  /** Accessible name of the button and the menu ("Switch workspace", "Account menu"). */
  label: string;
  buttonContent: ReactNode;
  buttonClassName?: string;
  align?: "left" | "right";
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState<false | "first" | "last">(false);
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  // Disabled until hydrated: a click or key before then would do nothing (no handler yet), silently.
  const hydrated = useHydrated();

  const items = useCallback(
    () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
    [],
  );
  const close = useCallback((refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const list = items();
    (open === "last" ? list[list.length - 1] : list[0])?.focus();
    const outside = (e: MouseEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, [open, items]);

  const onMenuKey = (e: React.KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === "ArrowDown") move(at + 1);
    else if (e.key === "ArrowUp") move(at - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(list.length - 1);
    else if (e.key === "Escape") {
      e.preventDefault();
      close();
    } else if (e.key === "Tab") close(false);
  };

  return (
    <div className={styles.menuWrap} ref={wrap}>
      <button
        ref={button}
        type="button"
        className={buttonClassName ?? styles.menuTrigger}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? menuId : undefined}
        disabled={!hydrated}
        onClick={() => setOpen(open ? false : "first")}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setOpen("first");
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setOpen("last");
          }
        }}
      >
        {buttonContent}
      </button>
      {open ? (
        <div
          ref={menu}
          id={menuId}
          className={`${styles.menu} ${align === "left" ? styles.menuLeft : ""}`}
          role="menu"
          tabIndex={-1}
          aria-label={label}
          onKeyDown={onMenuKey}
        >
          {children(() => close())}
        </div>
      ) : null}
    </div>
  );
}
