import type { BenchScenarios } from '../types.ts';

/** Notes API routes for npm run bench. */
export const scenarios: BenchScenarios = async () => [];
