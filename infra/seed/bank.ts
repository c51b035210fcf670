import type { SeedContext } from '../admin/seed.ts';

/** Bank demo data; returns lines to print with the credentials. */
export async function seedBank(_ctx: SeedContext): Promise<string[]> {
  return [];
}
