/** Row ids in URLs: Postgres `uuid`s. Anything else is "not found", never a database error. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical 8-4-4-4-12 hex UUID string. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}
