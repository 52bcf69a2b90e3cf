import { describe, expect, it } from "vitest";
import { gitImportAllowsPrivate, gitImportHostPolicy, gitImportPolicy } from "@/lib/projects/git-hosts";

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

describe("gitImportAllowsPrivate / gitImportPolicy", () => {
  it("is on only for 1, true, yes, on (any case, spaces ignored); unset and anything else keep the default refusal", () => {
    const values = ["1", "true", "TRUE", " yes ", "On", "", "0", "false", "no", "off", "2", "maybe"];
    expect(values.map((v) => gitImportAllowsPrivate({ STRATA_GIT_IMPORT_ALLOW_PRIVATE: v }))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(gitImportAllowsPrivate({})).toBe(false);
  });

  it("combines both settings", () => {
    const policy = gitImportPolicy({
      STRATA_GIT_IMPORT_HOSTS: "github.com",
      STRATA_GIT_IMPORT_ALLOW_PRIVATE: "1",
    });
    expect(policy.allowPrivate).toBe(true);
    expect([policy.allowHost?.("github.com"), policy.allowHost?.("gitlab.com")]).toEqual([true, false]);
    expect(gitImportPolicy({})).toEqual({ allowHost: undefined, allowPrivate: false });
  });
});
