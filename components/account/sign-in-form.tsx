"use client";

import { useState } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./auth.module.css";
import { AccountError, accountErrorMessage, callJson } from "./auth-fetch";
import { FormError } from "./auth-shell";
import { safeNextPath, withNext } from "./next-path";
import { PasswordInput } from "./password-input";
import { clearSignedOut } from "./sign-out";

/**
 * The email + password sign-in (`POST /api/auth/sign-in/email`); on success the signed-out mark is cleared and the
 * browser goes to `next` (a same-origin path, else `/`). In local mode it also offers "Continue as Local owner".
 */
export function SignInForm({ next, mode }: { next: string; mode: "local" | "accounts" }) {
  const target = safeNextPath(next);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AccountError | Error | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await callJson("/api/auth/sign-in/email", { email: email.trim(), password });
      clearSignedOut();
      window.location.assign(target);
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      setBusy(false);
    }
  };

  return (
    <>
      <form className={styles.form} onSubmit={submit} noValidate={false} aria-label="Sign in">
        <div className={styles.field}>
          <label htmlFor="email" className={styles.label}>
            Email
          </label>
          <input
            id="email"
            name="email"
            className={styles.input}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            // biome-ignore lint/a11y/noAutofocus: the page exists to type into this field
            autoFocus
          />
        </div>
        <PasswordInput
          id="password"
          label="Password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          invalid={error instanceof AccountError && error.code === "INVALID_EMAIL_OR_PASSWORD"}
        />
        <FormError message={error ? accountErrorMessage(error) : null} />
        <button type="submit" className={styles.primary} disabled={busy || !hydrated}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {mode === "local" ? (
        <>
          <div className={styles.divider}>
            <span>or</span>
          </div>
          <a
            className={styles.secondary}
            href={`/api/auth/local/sign-in?callbackURL=${encodeURIComponent(target)}`}
            onClick={() => clearSignedOut()}
          >
            Continue as Local owner
          </a>
          <p className={styles.note}>This server runs on your machine; the local owner needs no password.</p>
        </>
      ) : null}
      <p className={styles.switch}>
        New to Strata? <a href={withNext("/sign-up", target)}>Create an account</a>
      </p>
    </>
  );
}
