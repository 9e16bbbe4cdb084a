// How times read on every screen (browser): in the user's zone, absolute or relative to now.

const formatters = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    // Building a formatter is slow and tables ask for one per row.
    formatter = new Intl.DateTimeFormat(undefined, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: zone,
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** "23 Nov 2026, 09:00" in `zone`; a dash for no time. */
export function formatDateTime(ms: number | null, zone: string): string {
  return ms === null ? '—' : dateTimeFormatter(zone).format(ms);
}

/**
 * formatDateTime's text cut where its time starts: the date ("23 Nov 2026,"), the space after it
 * and the time ("09:00"). Joined they are the same text; apart, a narrow column can put the time
 * under the date without breaking either.
 */
export function dateTimeLines(
  ms: number,
  zone: string,
): { date: string; gap: string; time: string } {
  const formatter = dateTimeFormatter(zone);
  // Cut the formatted text itself: V8's parts may hold other spaces (U+202F) than its text.
  const text = formatter.format(ms);
  const parts = formatter.formatToParts(ms);
  const timeStart = parts.findIndex((part) => part.type === 'hour' || part.type === 'dayPeriod');
  // A locale that writes the time first keeps the text in one piece.
  if (timeStart <= 0) return { date: text, gap: '', time: '' };
  const cut = parts.slice(0, timeStart).reduce((length, part) => length + part.value.length, 0);
  const date = text.slice(0, cut).trimEnd();
  return { date, gap: text.slice(date.length, cut), time: text.slice(cut) };
}

/** "23 Nov 2026, 09:00 to 25 Nov 2026, 17:00" in `zone`, or the one time when both are the same. */
export function formatSpan(first: number, last: number, zone: string): string {
  const from = formatDateTime(first, zone);
  return first === last ? from : `${from} to ${formatDateTime(last, zone)}`;
}

/** The wall time of an instant in `zone`, as a datetime-local input holds it ("2026-11-23T09:00"). */
export function wallTime(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "in 42 sec.", "3 min. ago": the largest unit that fits. */
export function relativeTime(ms: number, now: number): string {
  const delta = ms - now;
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size) return relative.format(Math.trunc(delta / size), unit);
  }
  return relative.format(Math.trunc(delta / 1000), 'second');
}

/** Every IANA zone this runtime knows, with `current` kept even when the list lacks it (UTC). */
export function timeZones(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(current) ? zones : [current, ...zones];
}

/** "euro (EUR)": a currency by name and code, so no one has to know the code. */
export function formatCurrencyName(code: string): string {
  const name = new Intl.DisplayNames(undefined, { type: 'currency' }).of(code);
  return name && name !== code ? `${name} (${code})` : code;
}
