import Link from "next/link";
import { connection } from "next/server";

/**
 * The 404 page. Rendered per request (not prerendered), so its scripts carry the request's CSP nonce
 * (`proxy.ts`); a prerendered page's scripts have none and the CSP blocks them.
 */
export default async function NotFound() {
  await connection();
  return (
    <main className="home">
      <header className="home-header">
        <h1>Strata</h1>
      </header>
      <div className="notice notice-warning notice-stacked" role="alert">
        <p className="notice-title">Page not found</p>
        <p className="notice-body">
          There is nothing at this address. The project or session may have been deleted, or the link is
          mistyped.
        </p>
        <p className="notice-actions">
          <Link href="/">Back to your projects</Link>
        </p>
      </div>
    </main>
  );
}
