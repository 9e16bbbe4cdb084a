import type { Command } from 'commander';
export function registerTeamDesktop(_team: Command): void {}
