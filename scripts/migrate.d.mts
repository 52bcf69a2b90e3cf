import type { Client, Pool } from "@neondatabase/serverless";

export function nodeClientClass(proxy?: string): typeof Client;
export function nodePool(url: string, proxy?: string): Pool;
export function runMigrations(url: string, proxy?: string): Promise<number>;
export function migrationJournal(): { tag: string; when: number }[];
export function migrateDatabase(
  url: string,
  proxy?: string,
): Promise<{ applied: string[]; total: number; ms: number }>;
