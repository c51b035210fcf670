import type { Command } from 'commander';

/** Notes API admin commands (registered by infra/admin/program.ts). */
export function registerNotesCommands(_program: Command): void {}
