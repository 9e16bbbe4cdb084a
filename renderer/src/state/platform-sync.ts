// Refreshing cached platform records (browser): the orders, subscribers and bots screens show
// what the last pull sync brought, and refresh by running one.
import type { CoreEvent } from '../../../shared/answers';
import type { Api } from '../lib/api';

/**
 * Runs a sync of everything and answers what went wrong for `resource` (the core's message, or
 * the platform's for that list), or null when it arrived.
 */
export async function syncFor(api: Api, resource: string): Promise<string | null> {
  const result = await api.sync({});
  if (!result.ok) return result.error.message;
  const outcome = result.value[resource];
  if (typeof outcome !== 'object') return null;
  return 'error' in outcome
    ? `The platform's ${resource} could not be read (${outcome.error}); showing the last copy.`
    : `The platform's ${resource} could not be read to the end (${outcome.notPruned}); nothing was removed.`;
}

/** Sync is the only way cached records change; the core announces it as a cache change. */
export const touchesCache = (event: CoreEvent): boolean =>
  event.type === 'changed' && event.what === 'cache';
