// Shared by the renderer's screen tests (jsdom): a bot as the core lists it, what a field's
// description reads, and a zone chosen in a time zone select.
import { fireEvent } from '@testing-library/svelte';
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

/**
 * Chooses `zone` in a time zone select as a person does: the focus reaches it first, which is
 * when it lists every zone (ZoneSelect); before that it holds the chosen zone alone.
 */
export async function chooseZone(select: HTMLElement, zone: string): Promise<void> {
  await fireEvent.focus(select);
  await fireEvent.change(select, { target: { value: zone } });
}
