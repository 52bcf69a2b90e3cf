import { describe, expect, it } from "vitest";
import {
  loadTabs,
  MAX_REMEMBERED_TABS,
  saveTabs,
  type TabStorage,
  tabsKey,
} from "@/components/editor/tab-memory";
import { memoryStorage } from "../../helpers/storage";

describe("tab memory", () => {
  it("keeps a project's tabs in order with the active one, under strata.tabs.<id>", () => {
    const s = memoryStorage();
    expect(saveTabs(s, "p1", { paths: ["src/a.ts", "README.md"], active: "README.md" })).toBe(true);
    expect([...s.map.entries()]).toEqual([
      ["strata.tabs.p1", '{"paths":["src/a.ts","README.md"],"active":"README.md"}'],
    ]);
    expect(loadTabs(s, "p1")).toEqual({ paths: ["src/a.ts", "README.md"], active: "README.md" });
    expect(loadTabs(s, "p2")).toEqual({ paths: [], active: null });
  });

  it("removes the entry when no tab is open, and drops an active path that is not a tab", () => {
    const s = memoryStorage();
    saveTabs(s, "p1", { paths: ["a"], active: "gone" });
    expect(loadTabs(s, "p1")).toEqual({ paths: ["a"], active: null });
    saveTabs(s, "p1", { paths: [], active: null });
    expect(s.map.has(tabsKey("p1"))).toBe(false);
  });

  it("reads nothing from a damaged entry, keeps only string paths, and at most 30 tabs", () => {
    const s = memoryStorage();
    s.map.set(tabsKey("bad"), "{not json");
    expect(loadTabs(s, "bad")).toEqual({ paths: [], active: null });
    s.map.set(tabsKey("mixed"), JSON.stringify({ paths: ["a", 3, "", null, "b"], active: 3 }));
    expect(loadTabs(s, "mixed")).toEqual({ paths: ["a", "b"], active: null });
    const many = Array.from({ length: 40 }, (_, i) => `f${i}`);
    saveTabs(s, "many", { paths: many, active: "f35" });
    expect(loadTabs(s, "many")).toEqual({ paths: many.slice(0, MAX_REMEMBERED_TABS), active: null });
  });

  it("says false when the storage refuses (quota) or there is none, and loads nothing from none", () => {
    const full: TabStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException("quota", "QuotaExceededError");
      },
      removeItem: () => undefined,
    };
    expect(saveTabs(full, "p", { paths: ["a"], active: "a" })).toBe(false);
    expect(saveTabs(null, "p", { paths: ["a"], active: "a" })).toBe(false);
    expect(loadTabs(null, "p")).toEqual({ paths: [], active: null });
  });
});
