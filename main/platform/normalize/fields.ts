// The small tolerant readers every answer's schema is made of (Node, main process): whatever
// reasonable shape a platform sends (docs/platform-api.md, "Client tolerance"), ids become exact
// strings, instants ISO UTC, money exact minor units, and alternative field names the canonical one.
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { decimalToMinor, isCurrency, minorToDecimal } from '../../../shared/money';

export type Raw = Record<string, unknown>;

export const isRecord = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A number id is exact only as a safe integer; bigger ones arrive as digit strings (above). */
export const id = z
  .union([z.string().min(1), z.number().refine(Number.isSafeInteger, 'is not an exact integer')])
  .transform(String);
export const nullableId = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) =>
    value === null || value === undefined || value === '' ? null : String(value),
  );
export const nullableText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/** Epoch seconds, milliseconds, microseconds or nanoseconds, told apart by magnitude. */
function epochMillis(value: number): number {
  const size = Math.abs(value);
  if (size < 1e11) return value * 1000; // seconds until the year 5138
  if (size < 1e14) return value;
  if (size < 1e17) return value / 1e3;
  return value / 1e6;
}

const EPOCH_TEXT = /^-?\d+(\.\d+)?$/;
const RFC_2822_ZONE = /(?:[+-]\d{4}|\b(?:UT|UTC|GMT|Z|[ECMP][SD]T))\s*$/i;

/** The canonical form most platforms send, `2026-11-28T12:39:21.615Z`. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/**
 * Milliseconds of a canonical ISO UTC text without Temporal, whose parse took most of reading a
 * page of orders (#32); NaN when it is not one. Date.parse rolls an impossible day over (February
 * 30th is March 2nd), so only a text that comes back the same from its milliseconds counts.
 */
function isoUtcMillis(text: string): number {
  if (!ISO_UTC.test(text)) return NaN;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19)
    ? ms
    : NaN;
}

/** Milliseconds of a date-time text; a text without a zone or offset is UTC (docs/platform-api.md). */
function textMillis(text: string): number {
  const trimmed = text.trim();
  if (EPOCH_TEXT.test(trimmed)) return epochMillis(Number(trimmed));
  const canonical = isoUtcMillis(trimmed);
  if (!Number.isNaN(canonical)) return canonical;
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    try {
      return Temporal.Instant.from(trimmed).epochMilliseconds;
    } catch {
      // No offset (or not a valid one): a wall time in UTC, if it is one at all.
    }
    try {
      return Temporal.PlainDateTime.from(trimmed, { overflow: 'reject' }).toZonedDateTime('UTC')
        .epochMilliseconds;
    } catch {
      return NaN;
    }
  }
  // RFC 2822 and the like: Date.parse reads a zone-less one in this computer's zone, so add UTC.
  return Date.parse(RFC_2822_ZONE.test(trimmed) ? trimmed : `${trimmed} GMT`);
}

/** Years 0000–9999: what RFC 3339 can write, and far past any real post or order. */
const MIN_MS = -62_167_219_200_000; // 0000-01-01T00:00:00Z
const MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** ISO UTC from an ISO, SQL or RFC 2822 text, or from an epoch number or digit text; else null. */
export function toIso(value: string | number): string | null {
  const ms = typeof value === 'number' ? epochMillis(value) : textMillis(value);
  if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS) return null;
  return new Date(Math.round(ms)).toISOString();
}

export const nullableInstant = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value, context) => {
    if (value === null || value === undefined || value === '') return null;
    const iso = toIso(value);
    if (iso === null)
      context.addIssue({ code: 'custom', message: `"${value}" is not a possible date-time` });
    return iso;
  });

/** The first of `keys` that the object has (not null or undefined). */
export function first(raw: Raw, keys: readonly string[]): unknown {
  for (const key of keys) if (raw[key] !== undefined && raw[key] !== null) return raw[key];
  return undefined;
}

/** Renames alternative field names to the canonical one before the schema reads the object. */
export function aliases(map: Record<string, readonly string[]>) {
  return (value: unknown) => {
    if (!isRecord(value)) return value;
    const copy: Raw = { ...value };
    for (const [canonical, alternatives] of Object.entries(map)) {
      if (copy[canonical] === undefined) {
        const found = first(copy, alternatives);
        if (found !== undefined) copy[canonical] = found;
      }
    }
    return copy;
  };
}

type MoneyResult = { ok: true; minor: number; currency: string } | { ok: false; reason: string };

/**
 * Money under `field` in any accepted form: decimal text, a JSON number (read through its decimal
 * text), integer minor units under `<field>_cents` / `<field>_minor` / `amount_minor`, or an object
 * `{ amount, currency }`.
 */
function readMoney(raw: Raw, field: string, fallbackCurrency: unknown): MoneyResult {
  let value = raw[field];
  let currency = raw.currency ?? fallbackCurrency;
  if (isRecord(value)) {
    currency = value.currency ?? currency;
    value = value.amount ?? value.value;
  }
  if (typeof currency !== 'string' || !isCurrency(currency.toUpperCase())) {
    return { ok: false, reason: `${field} has no known ISO 4217 currency` };
  }
  const code = currency.toUpperCase();
  if (typeof value === 'string' || typeof value === 'number') {
    const read = decimalToMinor(String(value).trim(), code);
    return read.ok
      ? { ok: true, minor: read.minor, currency: code }
      : { ok: false, reason: `${field} ${read.reason}` };
  }
  const minor = first(raw, [`${field}_cents`, `${field}_minor`, 'amount_minor']);
  if (typeof minor === 'number' && Number.isSafeInteger(minor))
    return { ok: true, minor, currency: code };
  return { ok: false, reason: `${field} is missing` };
}

export function withMoney<T extends Raw>(field: string, fallbackCurrency?: (raw: T) => unknown) {
  return (raw: T, context: z.RefinementCtx) => {
    const money = readMoney(raw, field, fallbackCurrency?.(raw));
    if (!money.ok) {
      context.addIssue({ code: 'custom', path: [field], message: money.reason });
      return z.NEVER;
    }
    return {
      ...raw,
      [field]: minorToDecimal(money.minor, money.currency),
      [`${field}_minor`]: money.minor,
      currency: money.currency,
    } as T & Record<string, string | number> & { currency: string };
  };
}
