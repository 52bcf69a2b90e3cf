"use client";

import { useEffect } from "react";
import authStyles from "@/components/account/auth.module.css";
import { StatusPage } from "@/components/account/status-page";

/**
 * The error page for anything a page throws while rendering (a database that went away, a bug): what happened,
 * what to try (again, reload, go home) and the reference to find the server's log line. Never the error's text
 * from the server (Next sends only its digest).
 */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error("[strata] page error:", error);
  }, [error]);
  const digest =
    typeof error === "object" && error !== null && "digest" in error && typeof error.digest === "string"
      ? error.digest
      : null;
  return (
    <StatusPage
      tone="error"
      code="Error"
      title="Something went wrong"
      actions={
        <>
          <button type="button" className={authStyles.primary} onClick={() => retry()}>
            Try again
          </button>
          <a className={authStyles.secondary} href="/">
            Back to your projects
          </a>
        </>
      }
    >
      <p>
        This page could not be shown. If the Strata server was restarting or its database was busy, trying
        again in a few seconds usually works. Your projects and sessions are stored on the server.
      </p>
      {digest ? (
        <p>
          If it keeps happening, look for <code>{digest}</code> in the server&apos;s log.
        </p>
      ) : null}
    </StatusPage>
  );
}
