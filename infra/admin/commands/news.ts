import type { Command } from 'commander';

/** News API admin commands (registered by infra/admin/program.ts). */
export function registerNewsCommands(_program: Command): void {}
