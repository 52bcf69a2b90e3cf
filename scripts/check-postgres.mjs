// The integration and e2e tests need the real Postgres at 127.0.0.1:5432 (trust auth). Fail early and clearly.
import pg from "pg";

const host = process.env.STRATA_TEST_PG_HOST ?? "127.0.0.1";
const port = Number(process.env.STRATA_TEST_PG_PORT ?? 5432);
const client = new pg.Client({
  host,
  port,
  user: "postgres",
  database: "postgres",
  connectionTimeoutMillis: 5000,
});
try {
  await client.connect();
  const { rows } = await client.query("select current_setting('server_version') as v");
  console.log(`postgres: ${host}:${port} (server ${rows[0].v})`);
  await client.end();
} catch (error) {
  console.error(`The tests need PostgreSQL at ${host}:${port} (user postgres, trust auth): ${error.message}`);
  console.error(
    "Start it (e.g. pg_ctlcluster <version> main start) or set STRATA_TEST_PG_HOST / STRATA_TEST_PG_PORT.",
  );
  process.exit(1);
}
