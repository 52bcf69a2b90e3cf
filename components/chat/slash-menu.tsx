"use client";

import { type KeyboardEvent, useId, useMemo, useState } from "react";
import { applySlashPick, filterSlashCommands, type SlashCommand, slashQuery } from "./slash-commands";

/** What {@link useSlashMenu} gives the composer. */
export interface SlashMenu {
  open: boolean;
  items: SlashCommand[];
  active: number;
  listId: string;
  optionId: (index: number) => string;
  /** Handle a key of the textarea; true when the menu used it (the composer then does nothing else). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** Track the caret (the textarea's `onSelect`). */
  onCaret(caret: number): void;
  pick(index: number): void;
  /** ARIA attributes for the textarea (a textbox that controls the list). */
  inputProps: {
    "aria-autocomplete": "list";
    "aria-controls"?: string;
    "aria-activedescendant"?: string;
  };
}

/**
 * The `/` autocomplete's state: open while the composer text starts with `/` and the caret is still in the
 * command name, listing {@link filterSlashCommands} of `commands`. ArrowDown/ArrowUp move (wrapping), Tab picks,
 * Enter picks (unless the typed name already is the highlighted one: then Enter sends), Escape closes it until
 * the text changes. A pick calls `onPick` with the new text and caret ({@link applySlashPick}).
 */
export function useSlashMenu(
  value: string,
  commands: readonly SlashCommand[],
  onPick: (value: string, caret: number) => void,
): SlashMenu {
  const listId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [queryKey, setQueryKey] = useState<string | null>(null);
  // Without a caret event yet (typed, or filled programmatically) the caret is at the end.
  const query = slashQuery(value, Math.min(caret ?? value.length, value.length));
  const items = useMemo(
    () => (query === null ? [] : filterSlashCommands(commands, query)),
    [commands, query],
  );
  if (query !== queryKey) {
    setQueryKey(query);
    setActive(0);
  }
  const open = query !== null && dismissed !== value && commands.length > 0;
  const current = Math.min(active, Math.max(items.length - 1, 0));

  const pick = (index: number) => {
    const item = items[index];
    if (!item) return;
    const next = applySlashPick(value, item.name);
    setCaret(next.caret);
    onPick(next.value, next.caret);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || e.nativeEvent.isComposing) return false;
    if (e.key === "Escape") {
      e.preventDefault();
      setDismissed(value);
      return true;
    }
    if (items.length === 0) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((current + step + items.length) % items.length);
      return true;
    }
    const exact = `/${items[current].name}` === value.trimEnd();
    if (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey && !e.altKey && !exact)) {
      e.preventDefault();
      pick(current);
      return true;
    }
    return false;
  };

  const optionId = (index: number) => `${listId}-option-${index}`;
  return {
    open,
    items,
    active: current,
    listId,
    optionId,
    onKeyDown,
    onCaret: setCaret,
    pick,
    inputProps: {
      "aria-autocomplete": "list",
      ...(open ? { "aria-controls": listId } : {}),
      ...(open && items.length > 0 ? { "aria-activedescendant": optionId(current) } : {}),
    },
  };
}

const SOURCE_LABEL: Record<SlashCommand["source"], string> = {
  builtin: "command",
  template: "prompt template",
  extension: "extension",
  skill: "skill",
};

/** The autocomplete list (a listbox above the composer's textarea); the mouse picks without taking focus. */
export function SlashMenuList({ menu }: { menu: SlashMenu }) {
  if (!menu.open) return null;
  if (menu.items.length === 0)
    return (
      <div className="slash-menu slash-menu-empty muted" role="status">
        No command, prompt template or skill matches this name.
      </div>
    );
  return (
    <div
      className="slash-menu"
      role="listbox"
      id={menu.listId}
      aria-label="Commands, prompt templates and skills"
    >
      {menu.items.map((item, i) => (
        <div
          key={item.name}
          id={menu.optionId(i)}
          role="option"
          aria-selected={i === menu.active}
          className={`slash-option${i === menu.active ? " active" : ""}`}
          tabIndex={-1}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => menu.pick(i)}
          onKeyDown={() => {}}
        >
          <span className="slash-name">/{item.name}</span>
          <span className="slash-hint muted">{item.argumentHint ?? ""}</span>
          <span className="slash-description">{item.description}</span>
          <span className="slash-source muted">{SOURCE_LABEL[item.source]}</span>
        </div>
      ))}
    </div>
  );
}
