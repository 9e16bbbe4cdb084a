// Shared by the renderer's screen tests (jsdom): a bot as the core lists it, and what a field's
// description reads.
import type { BotSummary } from '../../shared/domain';

export const bot = (id: string, name: string, extra: Partial<BotSummary> = {}): BotSummary => ({
  id,
  name,
  channel: 'telegram',
  status: 'active',
  description: null,
  pending: 0,
  ...extra,
});

/** What a field's aria-describedby points at, as a screen reader reads it after the label. */
export function description(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent?.trim())
    .filter(Boolean)
    .join(' ');
}
