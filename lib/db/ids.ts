/** Row ids in URLs: Postgres `uuid`s. Anything else is "not found", never a database error. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical 8-4-4-4-12 hex UUID string. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** Session entry ids (pi's `generateId`, and Strata's): 8 lower-case hex digits. */
const ENTRY_ID = /^[0-9a-f]{8}$/;

/** True for a string shaped as a session entry id (8 lower-case hex digits). */
export function isEntryIdShape(id: string): boolean {
  return ENTRY_ID.test(id);
}
