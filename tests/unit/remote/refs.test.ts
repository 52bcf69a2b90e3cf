import { describe, expect, it } from "vitest";
import { safeFileStem } from "@/lib/remote/archive";
import { maskCredential } from "@/lib/remote/errors";
import {
  branchNameProblem,
  refFormatProblem,
  sessionBranchName,
  slugify,
  sourceProblem,
} from "@/lib/remote/refs";
import { parseRemoteUrl } from "@/lib/remote/remote";

describe("session branch names", () => {
  it("slugs a title into strata/<slug>: ASCII, single dashes, at most 48 characters", () => {
    expect(sessionBranchName("Fix the login bug!")).toBe("strata/fix-the-login-bug");
    expect(sessionBranchName("Grüße aus Köln — déjà vu")).toBe("strata/grusse-aus-koln-deja-vu");
    expect(sessionBranchName("../../etc/passwd .lock")).toBe("strata/etc-passwd-lock");
    expect(sessionBranchName("日本語")).toBe("strata/session");
    expect(sessionBranchName(null)).toBe("strata/session");
    expect(slugify("a".repeat(60))).toBe("a".repeat(48));
    expect(slugify(`${"a".repeat(47)} b`)).toBe("a".repeat(47));
  });

  it("picks the first free name when it is taken", () => {
    const taken = new Set(["strata/fix", "strata/fix-2"]);
    expect(sessionBranchName("Fix", taken)).toBe("strata/fix-3");
  });

  it("always yields a valid branch name", () => {
    for (const title of ["", "...", "a..b", "x.lock", "@{u}", "-lead", "with space", "~^:?*[\\"])
      expect(branchNameProblem(sessionBranchName(title)), title).toBeNull();
  });
});

describe("git check-ref-format rules", () => {
  it.each([
    ["refs/heads/main", null],
    ["refs/heads/strata/session-123", null],
    ["refs/heads/a..b", 'a ref name must not contain ".."'],
    ["refs/heads/.hidden", "no part of a ref name may start with . or end with .lock"],
    ["refs/heads/x.lock", "no part of a ref name may start with . or end with .lock"],
    ["refs/heads/a b", "a ref name must not contain spaces, control characters or any of ~ ^ : ? * [ \\"],
    ["refs/heads/a@{1}", 'a ref name must not contain "@{"'],
    ["refs/heads//x", "a ref name must not start or end with / or contain //"],
    ["refs/heads/x.", "a ref name must not end with ."],
    ["@", "a ref name must not be empty or @"],
  ])("%s", (ref, problem) => {
    expect(refFormatProblem(ref)).toBe(problem);
  });

  it("branch names and sources", () => {
    expect(branchNameProblem("-x")).toBe("Branch name -x must not start with -.");
    expect(branchNameProblem("refs/heads/main")).toBe(
      "Give the branch name without refs/heads/ (e.g. main).",
    );
    expect(sourceProblem("HEAD")).toBeNull();
    expect(sourceProblem("0123456789abcdef0123456789abcdef01234567")).toBeNull();
    expect(sourceProblem("main")).toBe(
      "main is not a commit: give HEAD, a 40-hex commit id or a ref such as refs/heads/strata/session-<id>.",
    );
  });
});

describe("remote URLs and masking", () => {
  it("refuses user info, other schemes and junk without quoting secrets", () => {
    expect(parseRemoteUrl("https://github.com/o/r.git")).toEqual({
      url: "https://github.com/o/r.git",
      host: "github.com",
    });
    expect(parseRemoteUrl("http://127.0.0.1:4302/r.git").host).toBe("127.0.0.1:4302");
    expect(() => parseRemoteUrl("https://me:s3cret@github.com/o/r.git")).toThrow(
      /^The remote URL contains a user name or password\. .* github\.com /,
    );
    expect(() => parseRemoteUrl("https://tok@github.com/o/r.git")).toThrow(/contains a user name/);
    expect(() => parseRemoteUrl("ssh://git@github.com/o/r.git")).toThrow(
      "Only http(s) remotes are supported (got ssh:)",
    );
    expect(() => parseRemoteUrl("not a url")).toThrow(/not a valid URL/);
  });

  it("masks the token, a long user name and URL user info", () => {
    const credential = { username: "octocat", password: "ghp_secret" };
    expect(maskCredential("octocat ghp_secret https://a:b@h/x", credential)).toBe("*** *** https://***@h/x");
    expect(maskCredential("git said no", { username: "git", password: "p4ss" })).toBe("git said no");
  });

  it("makes safe download names", () => {
    expect(safeFileStem("My Project (v2)")).toBe("My-Project-v2");
    expect(safeFileStem('../"evil"\r\nname')).toBe("evil-name");
    expect(safeFileStem("日本")).toBe("project");
  });
});
