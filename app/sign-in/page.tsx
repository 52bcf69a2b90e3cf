import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/account/auth-shell";
import { safeNextPath } from "@/components/account/next-path";
import { SignInForm } from "@/components/account/sign-in-form";
import { isSignedIn, param, signInMode } from "./signed-in";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Strata" };

/** `/sign-in?next=/path`: email + password (and "Continue as Local owner" in local mode); signed in → `next`. */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const next = safeNextPath(param(query.next));
  if (await isSignedIn("/sign-in")) redirect(next);
  return (
    <AuthShell
      title="Sign in to Strata"
      subtitle={next === "/" ? "Welcome back." : "Sign in to continue to the page you opened."}
    >
      <SignInForm next={next} mode={await signInMode()} />
    </AuthShell>
  );
}
