// Public ids of the reference server (Node, main process): a type prefix plus the SQLite row id,
// so ids are opaque strings on the wire and integers in storage.

export const ID_PREFIX = {
  account: 'acct',
  bot: 'bot',
  subscriber: 'sub',
  message: 'msg',
  post: 'post',
  product: 'prod',
  order: 'ord',
  comment: 'cmt',
  webhook: 'wh',
  event: 'evt',
  chat: 'chat',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

export function formatId(kind: IdKind, rowId: number | bigint): string {
  return `${ID_PREFIX[kind]}_${rowId}`;
}

export function formatOptionalId(kind: IdKind, rowId: number | null): string | null {
  return rowId === null ? null : formatId(kind, rowId);
}

/** The row id behind a public id, or null when the text is not an id of that kind. */
export function parseId(kind: IdKind, text: string): number | null {
  const match = new RegExp(`^(?:${ID_PREFIX[kind]}_)?([1-9]\\d{0,15})$`).exec(text);
  if (!match?.[1]) return null;
  const rowId = Number(match[1]);
  return Number.isSafeInteger(rowId) ? rowId : null;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}
