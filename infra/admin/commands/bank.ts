import type { Command } from 'commander';

/** Bank API admin commands (registered by infra/admin/program.ts). */
export function registerBankCommands(_program: Command): void {}
