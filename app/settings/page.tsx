import type { Metadata } from "next";
import { SettingsView } from "@/components/account/settings-view";
import { currentSessionId, hasPassword } from "@/lib/auth/account-reads";
import { withDb } from "@/lib/db/client";
import { listPageWorkspaces, pageRequest, requirePageCaller } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account settings · Strata" };

/** `/settings`: profile, password, sessions and access tokens of the signed-in account (signed out → sign in). */
export default async function SettingsPage() {
  const data = await withDb(async (scope) => {
    const { caller, mode } = await requirePageCaller(scope, "/settings");
    const request = await pageRequest("/settings");
    // One connection per request: queries in turn.
    const workspaces = await listPageWorkspaces(scope, caller.userId);
    const password = await hasPassword(scope, caller.userId);
    const sessionId = await currentSessionId(scope, request);
    return { caller, mode, workspaces, password, sessionId, origin: new URL(request.url).origin };
  });
  return (
    <SettingsView
      caller={{ id: data.caller.userId, email: data.caller.email, name: data.caller.name }}
      workspaces={data.workspaces}
      mode={data.mode}
      hasPassword={data.password}
      currentSessionId={data.sessionId}
      origin={data.origin}
    />
  );
}
