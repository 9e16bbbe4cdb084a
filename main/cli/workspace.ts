// Opens the workspace a CLI command works on (Node, CLI), from the global options.
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { Workspace } from '../core/workspace';
import type { WorkspaceConfig } from '../core/workspace';
import { userDataDir } from '../core/paths';
import { globalOptions } from './options';
import { createPrivateFolder, ensurePrivateFolder } from '../sqlite/private-files';

export function defaultWorkspaceFile(): string {
  return join(userDataDir(), 'workspace.sqlite');
}

/** Runs `work` with the command's workspace open, and closes it afterwards. */
export async function withWorkspace<T>(
  command: Command,
  work: (pressroom: Workspace) => Promise<T> | T,
  extra: Partial<WorkspaceConfig> = {},
): Promise<T> {
  const options = await globalOptions(command);
  const dbFile = options.db ?? defaultWorkspaceFile();
  // The default folder is Pressroom's own; a --db file's folder may be anyone's, so it is made
  // private only when new.
  if (options.db) createPrivateFolder(dirname(dbFile));
  else ensurePrivateFolder(dirname(dbFile));
  const pressroom = new Workspace({
    dbFile,
    apiBase: options.apiBase,
    token: options.token,
    plan: options.plan,
    ...extra,
  });
  try {
    return await work(pressroom);
  } finally {
    pressroom.close();
  }
}
