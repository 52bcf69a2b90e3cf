export function configureNeonForNode(proxy?: string): void;
export function runMigrations(url: string, proxy?: string): Promise<number>;
