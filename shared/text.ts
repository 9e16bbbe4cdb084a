// Text shown back to the user (pure, any process): a value of any length, cut to a length a
// sentence, a table cell or a notification can hold.

/** `text` when it has at most `length` characters, else its start and "…" in `length`. */
export function clipped(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/**
 * A user's value quoted inside a sentence, cut to 100 characters: a CSV cell can be megabytes,
 * and every row error that quoted it whole was kept, shown and sent whole.
 */
export function quoted(text: string): string {
  return `"${clipped(text, 100)}"`;
}

/** The first `shown` names, comma-separated, and how many more: a sentence, not a whole list. */
export function namesList(names: readonly string[], shown = 20): string {
  const first = names.slice(0, shown).join(', ');
  return names.length > shown ? `${first} and ${names.length - shown} more` : first;
}
