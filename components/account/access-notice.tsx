import styles from "./auth.module.css";
import { withNext } from "./next-path";
import { StatusPage } from "./status-page";

/**
 * 401 for a page: the visitor is not signed in (or their session ended). Links to `/sign-in?next=<next>` so they
 * come back to the page they opened.
 */
export function SignedOutNotice({ next = "/" }: { next?: string }) {
  return (
    <StatusPage
      tone="info"
      code="401 · Signed out"
      title="Sign in to continue"
      actions={
        <>
          <a className={styles.primary} href={withNext("/sign-in", next)}>
            Sign in
          </a>
          <a className={styles.secondary} href={withNext("/sign-up", next)}>
            Create an account
          </a>
        </>
      }
    >
      <p>You are not signed in, or your session has ended (after signing out, or on another device).</p>
    </StatusPage>
  );
}

/**
 * 403 for a page: the caller can see the resource but their role does not allow this. `what` names the action
 * ("change the team rules"), `role` the caller's role; `back` is where to go instead.
 */
export function ForbiddenNotice({
  what,
  role,
  back = { href: "/", label: "Back to your projects" },
}: {
  what: string;
  role?: string;
  back?: { href: string; label: string };
}) {
  return (
    <StatusPage
      tone="warning"
      code="403 · Not allowed"
      title="You do not have access to this"
      actions={
        <a className={styles.secondary} href={back.href}>
          {back.label}
        </a>
      }
    >
      <p>
        {role ? `Your role (${role}) cannot ${what}.` : `Your account cannot ${what}.`} Ask an owner or admin
        of the workspace to change your role, or to make the change for you.
      </p>
    </StatusPage>
  );
}
