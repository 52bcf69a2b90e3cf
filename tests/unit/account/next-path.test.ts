import { describe, expect, it } from "vitest";
import { safeNextPath, withNext } from "@/components/account/next-path";

describe("safeNextPath", () => {
  it("keeps same-origin paths with their query and fragment", () => {
    expect(safeNextPath("/")).toBe("/");
    expect(safeNextPath("/settings")).toBe("/settings");
    expect(safeNextPath("/projects/3f2c?session=a1#chat")).toBe("/projects/3f2c?session=a1#chat");
    expect(safeNextPath("/?workspace=0d9e")).toBe("/?workspace=0d9e");
    expect(safeNextPath("/invite/abc%2Fdef")).toBe("/invite/abc%2Fdef");
  });

  it("refuses missing, absolute, protocol-relative and scheme values", () => {
    expect(safeNextPath(undefined)).toBe("/");
    expect(safeNextPath(null)).toBe("/");
    expect(safeNextPath("")).toBe("/");
    expect(safeNextPath("https://evil.example/")).toBe("/");
    expect(safeNextPath("javascript:alert(1)")).toBe("/");
    expect(safeNextPath("//evil.example/x")).toBe("/");
    expect(safeNextPath("/\\evil.example")).toBe("/");
    expect(safeNextPath("settings")).toBe("/");
  });

  it("refuses control characters, whitespace and backslashes (URL parsers drop or rewrite them)", () => {
    expect(safeNextPath("/\t/evil.example")).toBe("/");
    expect(safeNextPath("/\n/evil.example")).toBe("/");
    expect(safeNextPath("/ /evil.example")).toBe("/");
    expect(safeNextPath("/a\\b")).toBe("/");
    expect(safeNextPath("/a\u0000")).toBe("/");
    expect(safeNextPath("/a\u0085")).toBe("/");
  });

  it("refuses the sign-in pages themselves (a loop), API routes and overlong values", () => {
    expect(safeNextPath("/sign-in")).toBe("/");
    expect(safeNextPath("/sign-in?next=/x")).toBe("/");
    expect(safeNextPath("/SIGN-UP/")).toBe("/");
    expect(safeNextPath("/api/auth/sign-out")).toBe("/");
    expect(safeNextPath("/api")).toBe("/");
    expect(safeNextPath("/apis")).toBe("/apis");
    expect(safeNextPath("/sign-inside")).toBe("/sign-inside");
    expect(safeNextPath(`/${"a".repeat(1999)}`)).toBe(`/${"a".repeat(1999)}`);
    expect(safeNextPath(`/${"a".repeat(2000)}`)).toBe("/");
  });
});

describe("withNext", () => {
  it("adds ?next= only for a safe path other than home", () => {
    expect(withNext("/sign-in", "/")).toBe("/sign-in");
    expect(withNext("/sign-in", "/settings#sessions")).toBe("/sign-in?next=%2Fsettings%23sessions");
    expect(withNext("/sign-up", "/projects/1?x=2")).toBe("/sign-up?next=%2Fprojects%2F1%3Fx%3D2");
    expect(withNext("/sign-up", "https://evil.example")).toBe("/sign-up");
  });
});
