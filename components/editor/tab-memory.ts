/**
 * The editor's open tabs, kept per project in the browser's storage so a reload reopens them (paths in tab order
 * and the active one; never file contents — unsaved edits are the editor's own matter). Pure functions over a
 * storage (tests/unit/components/tab-memory.test.ts).
 */

/** The storage the tabs live in (`window.localStorage` in the browser). */
export type TabStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The open tabs of a project: paths relative to its root, in tab order, and the active one. */
export interface RememberedTabs {
  paths: string[];
  active: string | null;
}

/** At most this many tabs are remembered (the first ones, in tab order). */
export const MAX_REMEMBERED_TABS = 30;

/** The storage key of a project's tabs. */
export const tabsKey = (projectId: string) => `strata.tabs.${projectId}`;

const NONE: RememberedTabs = { paths: [], active: null };

/** The project's remembered tabs; none when nothing (or nothing readable) is stored. */
export function loadTabs(storage: TabStorage | null, projectId: string): RememberedTabs {
  try {
    const raw = storage?.getItem(tabsKey(projectId));
    if (!raw) return NONE;
    const value = JSON.parse(raw) as { paths?: unknown; active?: unknown };
    const paths = Array.isArray(value.paths)
      ? value.paths
          .filter((p): p is string => typeof p === "string" && p !== "")
          .slice(0, MAX_REMEMBERED_TABS)
      : [];
    const active = typeof value.active === "string" && paths.includes(value.active) ? value.active : null;
    return { paths, active };
  } catch {
    return NONE;
  }
}

/** Remembers the project's tabs (none: the entry is removed). False when the storage refused it. */
export function saveTabs(storage: TabStorage | null, projectId: string, tabs: RememberedTabs): boolean {
  if (!storage) return false;
  try {
    const paths = tabs.paths.slice(0, MAX_REMEMBERED_TABS);
    if (paths.length === 0) storage.removeItem(tabsKey(projectId));
    else {
      const active = tabs.active && paths.includes(tabs.active) ? tabs.active : null;
      storage.setItem(tabsKey(projectId), JSON.stringify({ paths, active }));
    }
    return true;
  } catch {
    return false;
  }
}
