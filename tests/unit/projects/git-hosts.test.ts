import { describe, expect, it } from "vitest";
import { gitImportHostPolicy } from "@/lib/projects/git-hosts";

describe("gitImportHostPolicy", () => {
  it("allows every host when unset or empty", () => {
    expect(gitImportHostPolicy({})).toBeUndefined();
    expect(gitImportHostPolicy({ STRATA_GIT_IMPORT_HOSTS: " , " })).toBeUndefined();
  });

  it("matches exact names and subdomain wildcards, case-insensitively", () => {
    const allow = gitImportHostPolicy({ STRATA_GIT_IMPORT_HOSTS: "github.com, *.example.com,127.0.0.1" });
    expect(
      [
        "github.com",
        "GitHub.com",
        "api.github.com",
        "git.example.com",
        "example.com",
        "127.0.0.1",
        "localhost",
      ].map((h) => allow?.(h)),
    ).toEqual([true, true, false, true, false, true, false]);
  });
});
