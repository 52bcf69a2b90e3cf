export function configureNeonForNode(proxy?: string): void;
export function runMigrations(url: string, proxy?: string): Promise<number>;
export function migrationJournal(): { tag: string; when: number }[];
export function migrateDatabase(
  url: string,
  proxy?: string,
): Promise<{ applied: string[]; total: number; ms: number }>;
