"use client";

import { useState } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./auth.module.css";
import { AccountError, accountErrorMessage, callJson, MIN_PASSWORD_LENGTH } from "./auth-fetch";
import { FormError } from "./auth-shell";
import { safeNextPath, withNext } from "./next-path";
import { PasswordInput } from "./password-input";
import { clearSignedOut } from "./sign-out";

/** The sentence for a password that is too short before it is sent, or null when it is long enough. */
export function passwordProblem(password: string): string | null {
  return password.length < MIN_PASSWORD_LENGTH
    ? `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`
    : null;
}

/**
 * Create an account (`POST /api/auth/sign-up/email`: name, email, password); the server signs the new user in and
 * makes their personal workspace, then the browser goes to `next`. A closed server shows why instead.
 */
export function SignUpForm({ next, closed }: { next: string; closed: boolean }) {
  const target = safeNextPath(next);
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [taken, setTaken] = useState(false);

  if (closed)
    return (
      <>
        <FormError message="Sign-up is closed on this server; ask an owner for an invitation." />
        <p className={styles.note}>An owner of this server can create your account or reopen sign-up.</p>
        <a className={styles.secondary} href={withNext("/sign-in", target)}>
          Sign in with an existing account
        </a>
      </>
    );

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setTaken(false);
    const problem = passwordProblem(password);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await callJson("/api/auth/sign-up/email", {
        name: name.trim() || email.trim().split("@")[0],
        email: email.trim(),
        password,
      });
      clearSignedOut();
      window.location.assign(target);
    } catch (err) {
      setTaken(err instanceof AccountError && err.code.startsWith("USER_ALREADY_EXISTS"));
      setError(accountErrorMessage(err));
      setBusy(false);
    }
  };

  return (
    <>
      <form className={styles.form} onSubmit={submit} aria-label="Create account">
        <div className={styles.field}>
          <label htmlFor="name" className={styles.label}>
            Name
          </label>
          <input
            id="name"
            name="name"
            className={styles.input}
            type="text"
            autoComplete="name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            required
            // biome-ignore lint/a11y/noAutofocus: the page exists to type into this field
            autoFocus
          />
        </div>
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
            aria-invalid={taken || undefined}
          />
        </div>
        <PasswordInput
          id="password"
          label="Password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        />
        <FormError message={error}>
          {taken ? (
            <>
              {" "}
              <a href={withNext("/sign-in", target)}>Sign in</a>
            </>
          ) : null}
        </FormError>
        <button type="submit" className={styles.primary} disabled={busy || !hydrated}>
          {busy ? "Creating account…" : "Create account"}
        </button>
      </form>
      <p className={styles.switch}>
        Already have an account? <a href={withNext("/sign-in", target)}>Sign in</a>
      </p>
    </>
  );
}
