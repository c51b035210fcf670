import type { SeedContext } from '../admin/seed.ts';

/** News demo data; returns lines to print with the credentials. */
export async function seedNews(_ctx: SeedContext): Promise<string[]> {
  return [];
}
