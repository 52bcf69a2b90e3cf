import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/account/auth-shell";
import { safeNextPath } from "@/components/account/next-path";
import { SignUpForm } from "@/components/account/sign-up-form";
import { isSignedIn, param } from "../sign-in/signed-in";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create account · Strata" };

/** `/sign-up?next=/path`: name, email, password; closed (`STRATA_SIGNUP=closed`) → says so; signed in → `next`. */
export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const next = safeNextPath(param(query.next));
  if (await isSignedIn("/sign-up")) redirect(next);
  const closed = process.env.STRATA_SIGNUP === "closed";
  return (
    <AuthShell
      title={closed ? "Sign-up is closed" : "Create your account"}
      subtitle={closed ? undefined : "A personal workspace comes with it; create or join teams later."}
    >
      <SignUpForm next={next} closed={closed} />
    </AuthShell>
  );
}
