// Shared by the calendar and post editor tests (jsdom): posts, settings, posting schedules, AI
// replies, a Shell over a fake transport, and what jsdom lacks.
import type { OperationName } from '../../shared/contract';
import type { CallResult } from '../../shared/answers';
import type { BotSchedule, DuplicateConflict, LocalPost } from '../../shared/domain';
import { parseSchedule } from '../../shared/schedule';
import type { TeamStatus } from '../../shared/team';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { FakeTransport, ok, type Answer } from './fake-transport';
import { localPost } from '../support/records';

export const ZONE = 'Europe/Berlin';

export function post(fields: Partial<LocalPost> & { id: number }): LocalPost {
  return localPost({ zone: ZONE, ...fields });
}

export const settings = {
  timezone: ZONE,
  graceMinutes: 30,
  theme: 'light',
  defaultCurrency: 'EUR',
  defaultBotId: null,
  duplicateWindowDays: 3,
  account: { mode: 'demo', apiBase: null, tokenHint: null, plan: 'free' },
};

/** A bot's schedule as the core reports it, from its text. */
export function botSchedule(botId: string, text: string, nextFree: number[] = []): BotSchedule {
  const parsed = parseSchedule(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return { botId, zone: ZONE, days: parsed.value, text, nextFree };
}

/** The core's refusal of a text that repeats another post of the bot. */
export function duplicateOf(conflict: Partial<DuplicateConflict> = {}): CallResult {
  const duplicate: DuplicateConflict = {
    postId: 12,
    botId: 'bot_1',
    status: 'scheduled',
    text: 'Fresh rye today\nCome early',
    at: Date.UTC(2099, 10, 24, 8, 0),
    requestedAt: Date.UTC(2099, 10, 25, 8, 0),
    windowDays: 3,
    ...conflict,
  };
  return {
    ok: false,
    error: { kind: 'duplicate', message: 'The same text as post 12 of bot_1', duplicate },
  };
}

export const refused = (message: string, issues?: { field: string; message: string }[]) =>
  ({
    ok: false,
    error: { kind: issues ? 'invalid_input' : 'not_allowed', message, issues },
  }) satisfies CallResult;

/** This desktop connected to its team, alone there: the status of a team workspace. */
export const TEAM: TeamStatus = {
  team: 't_0123456789abcdef',
  url: 'ws://127.0.0.1:1/',
  device: 'd_11223344',
  state: 'connected',
  refusal: null,
  offlineSince: null,
  waiting: 0,
  lastSyncedAt: null,
  publishes: true,
  present: [],
};

/** A Shell whose settings (zone Europe/Berlin) are loaded, over a fake transport. */
export async function shellWith(
  answers: Partial<Record<OperationName, Answer>> = {},
): Promise<{ shell: Shell; transport: FakeTransport }> {
  const transport = new FakeTransport({ getSettings: () => ok(settings), ...answers });
  const shell = new Shell(transport);
  await shell.loadSettings();
  return { shell, transport };
}

class InertIntersectionObserver {
  readonly root = null;
  readonly rootMargin = '';
  readonly thresholds = [];
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
  takeRecords(): [] {
    return [];
  }
}

/**
 * What jsdom lacks and these screens use: modal dialogs (opening and closing are enough here) and
 * the IntersectionObserver the calendar's time grid asks for (jsdom never lays anything out).
 */
export function stubJsdom(): void {
  globalThis.IntersectionObserver ??=
    InertIntersectionObserver as unknown as typeof IntersectionObserver;
  const proto = HTMLDialogElement.prototype;
  proto.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close ??= function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

/** What the AI answers in tests, as the core reports it. */
export const aiReply = (text: string) => ({
  text,
  provider: 'openai',
  model: 'gpt-4o-mini',
  tokens: { prompt: 12, completion: 8, total: 20 },
  attempts: [
    { provider: 'anthropic', error: 'rate limited' },
    { provider: 'openai', error: null },
  ],
});
