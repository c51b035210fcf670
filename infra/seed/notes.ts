import type { SeedContext } from '../admin/seed.ts';

/** Notes demo data; returns lines to print with the credentials. */
export async function seedNotes(_ctx: SeedContext): Promise<string[]> {
  return [];
}
