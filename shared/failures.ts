// Why a write failed, in plain words with what to do next, for the Queue, the in-app notice, the
// desktop notification and the CLI alike. The platform's own text stays with the item (its
// `lastError`) for whoever wants it; this only reads it.
import type { OutboxKind } from './domain';

export interface FailureInput {
  kind: OutboxKind;
  /** The item's last error as the publisher recorded it ("POST /posts: 422 …", "Missed: …"). */
  reason: string | null;
  fieldErrors: readonly { field: string; message: string }[];
}

export interface PlainFailure {
  /** What went wrong, in a sentence. */
  what: string;
  /** What the user can do about it, in a sentence. */
  todo: string;
  /** Whether the item must be changed first: sent again as it is, it would fail the same way. */
  needsEdit?: true;
}

const SUBJECTS: Partial<Record<OutboxKind, string>> = {
  create_post: 'post',
  create_product: 'product',
  send_message: 'message',
  add_tag: 'tag',
};

/** The words a field of the platform's API stands for. */
const FIELD_WORDS: Record<string, string> = {
  text: 'the text',
  media_urls: 'a picture',
  price: 'the price',
  currency: 'the currency',
  sku: 'the SKU',
  name: 'the name',
  stock: 'the stock',
  scheduled_at: 'the time',
  image_url: 'the picture',
};

/**
 * How the publisher begins the reason of an item whose answer was lost and whose look-up could not
 * tell whether it went out: it waits for the user, and is never resent on its own.
 */
export const UNSURE_REASON = 'Not sure whether it was published';

/** The user's two answers to such an item, as the Queue's buttons name them. */
export const UNSURE_ANSWERS = {
  notThere: 'I checked: it is not there, send it',
  there: 'It is there: mark published',
} as const;

/** The HTTP status in a recorded error ("POST /posts: 422 validation_failed: …"), if any. */
function statusOf(reason: string): number | null {
  const match = /^[A-Z]+ \S+: (\d{3})\b/.exec(reason);
  return match ? Number(match[1]) : null;
}

/** Writes that publish something (a post, a product): their failures are told at once. */
export function publishes(kind: OutboxKind): boolean {
  return kind === 'create_post' || kind === 'create_product';
}

/** A failed or missed write, explained: what happened and what to do, never the raw API text. */
export function explainFailure({ kind, reason, fieldErrors }: FailureInput): PlainFailure {
  const subject = SUBJECTS[kind] ?? 'change';
  const text = reason ?? '';
  if (text.startsWith(UNSURE_REASON)) {
    return {
      what: `Pressroom cannot tell whether this ${subject} reached the platform: its answer was lost, and the check afterwards could not be sure. Nothing was sent again.`,
      todo: `Look on the platform, then choose “${UNSURE_ANSWERS.notThere}” or “${UNSURE_ANSWERS.there}”.`,
    };
  }
  if (text.startsWith('Missed:')) {
    return {
      what: `This ${subject} was not sent at its time: the computer was asleep or Pressroom was closed.`,
      todo: 'Publish it now, or give it a new time.',
    };
  }
  if (fieldErrors.some((issue) => issue.field === 'bot_id') || /\bbot_id\b/.test(text)) {
    return {
      what: `The bot this ${subject} was for no longer exists on the platform.`,
      todo: 'Pick another bot and publish again.',
      needsEdit: true,
    };
  }
  if (fieldErrors.length > 0) {
    const named = fieldErrors.map(
      (issue) => `${FIELD_WORDS[issue.field] ?? issue.field} (${issue.message})`,
    );
    return {
      what: `The platform refused ${named.join(', ')}.`,
      todo: `Correct it in the ${subject}, then publish again.`,
      needsEdit: true,
    };
  }
  if (text.startsWith('Gave up after')) {
    return {
      what: 'The platform did not answer after several tries.',
      todo: 'Check the internet connection and the platform’s status page, then retry.',
    };
  }
  const status = statusOf(text);
  if (status === 404 || status === 410) {
    return {
      what: `What this ${subject} refers to no longer exists on the platform.`,
      todo: 'Sync, check the details, then retry or cancel it.',
    };
  }
  if (status === 413) {
    return {
      what: `This ${subject} is too large for the platform.`,
      todo: 'Shorten it or use smaller pictures, then publish again.',
      needsEdit: true,
    };
  }
  return {
    what: `The platform refused this ${subject}.`,
    todo: 'Read the platform’s own message in the details, fix what it names, then retry.',
  };
}

/** One line: what went wrong, then what to do. */
export function describeFailure(input: FailureInput): string {
  const { what, todo } = explainFailure(input);
  return `${what} ${todo}`;
}
