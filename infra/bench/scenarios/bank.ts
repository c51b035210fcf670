import type { BenchScenarios } from '../types.ts';

/** Bank API routes for npm run bench. */
export const scenarios: BenchScenarios = async () => [];
