"use client";

import { useState } from "react";
import { AppHeader, type HeaderWorkspace } from "./app-header";
import { PasswordSection } from "./password-section";
import { ProfileSection } from "./profile-section";
import { SessionsSection } from "./sessions-section";
import styles from "./settings.module.css";
import { SharesSection } from "./shares-section";
import { TokensSection } from "./tokens-section";

const SECTIONS = [
  { id: "profile", label: "Profile" },
  { id: "password", label: "Password" },
  { id: "sessions", label: "Sessions" },
  { id: "tokens", label: "Access tokens" },
  { id: "shares", label: "Shared links" },
] as const;

/**
 * The account settings page (`/settings`): the app header, a section nav and the Profile, Password, Sessions,
 * Access tokens and Shared links cards. Everything after the first render goes through Better Auth's routes and
 * `/api/account/password`.
 */
export function SettingsView({
  caller,
  workspaces,
  mode,
  hasPassword,
  currentSessionId,
  origin,
}: {
  caller: { id: string; email: string; name: string };
  workspaces: HeaderWorkspace[];
  mode: "local" | "accounts";
  hasPassword: boolean;
  currentSessionId: string | null;
  /** This server's origin, for the token usage examples. */
  origin: string;
}) {
  const [name, setName] = useState(caller.name);
  return (
    <div className={styles.shell}>
      <AppHeader caller={{ ...caller, name }} workspaces={workspaces} currentWorkspaceId={null} mode={mode} />
      <div className={styles.page}>
        <header className={styles.pageHeader}>
          <h1>Account settings</h1>
          <p className={styles.pageSub}>
            Signed in as <strong>{caller.email}</strong>
          </p>
        </header>
        <div className={styles.layout}>
          <nav className={styles.nav} aria-label="Settings sections">
            {SECTIONS.map((s) => (
              <a key={s.id} href={`#${s.id}`} className={styles.navLink}>
                {s.label}
              </a>
            ))}
          </nav>
          <div className={styles.sections}>
            <ProfileSection name={name} email={caller.email} onRenamed={setName} />
            <PasswordSection hasPassword={hasPassword} />
            <SessionsSection currentSessionId={currentSessionId} />
            <TokensSection origin={origin} />
            <SharesSection />
          </div>
        </div>
      </div>
    </div>
  );
}
