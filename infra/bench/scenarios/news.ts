import type { BenchScenarios } from '../types.ts';

/** News API routes for npm run bench. */
export const scenarios: BenchScenarios = async () => [];
