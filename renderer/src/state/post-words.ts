// The post editor's sentences (browser): the queue buttons' names and what they would do, and the
// subject each field's problem is told with. Pure: the fields decide, this says it.
import type { CallResult, Issue } from '../../../shared/answers';
import type { BotSchedule } from '../../../shared/domain';
import { hasSlots } from '../../../shared/schedule';
import { formatDateTime } from '../lib/format';

/** Where a post goes by its bot's posting schedule: its next free slot, or the queue's front. */
export type QueueAction = 'add' | 'next';

export const QUEUE_LABELS: Record<QueueAction, string> = {
  add: 'Add to queue',
  next: 'Put first in the queue',
};

export type FieldName = 'text' | 'mediaUrls' | 'botId' | 'at' | 'zone';

/** What each field is called in a message, so no error is left without its subject. */
const SUBJECTS: Record<FieldName, string> = {
  text: 'The text',
  mediaUrls: 'The media',
  botId: 'The bot',
  at: 'The date and time',
  zone: 'The time zone',
};

/** The field an issue is about ("mediaUrls[2]" is about mediaUrls), or null for none of ours. */
export function fieldOf(issue: Issue): FieldName | null {
  const field = issue.field.replace(/\[\d+\]$/, '');
  return field in SUBJECTS ? (field as FieldName) : null;
}

/** An issue as a sentence with its subject: "Media line 2: …", "The bot: …". */
export function withSubject(issue: Issue): Issue {
  const line = /^mediaUrls\[(\d+)\]$/.exec(issue.field)?.[1];
  const field = fieldOf(issue);
  const subject =
    line !== undefined ? `Media line ${Number(line) + 1}` : field ? SUBJECTS[field] : null;
  return subject ? { ...issue, message: `${subject}: ${issue.message}` } : issue;
}

export const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The last answer about a bot's posting schedule, for the queue buttons. */
export interface ScheduleAnswer {
  botId: string;
  result: CallResult<BotSchedule>;
}

/** Why the queue buttons cannot be used for `queueBot` by the `answer` read, or null when they can. */
export function queueBlockedBy(
  queueBot: string | null,
  answer: ScheduleAnswer | null,
): string | null {
  if (!queueBot) return 'Choose a bot first: a post joins its bot’s posting schedule';
  if (answer?.botId !== queueBot) return 'Reading the bot’s posting schedule…';
  if (!answer.result.ok)
    return `Could not read the bot’s posting schedule: ${answer.result.error.message}`;
  if (!hasSlots(answer.result.value.days))
    return 'This bot has no posting schedule yet; set one on the Bots screen';
  if (answer.result.value.nextFree.length === 0)
    return 'This bot’s posting schedule has no free slot within a year';
  return null;
}

/** What the queue buttons would do with `schedule` in `zone`, or why they cannot (`blocked`). */
export function queueNoteOf(
  blocked: string | null,
  schedule: CallResult<BotSchedule> | null,
  zone: string,
): string {
  const { add, next } = QUEUE_LABELS;
  if (blocked || !schedule?.ok) return `${add} and ${next}: ${blocked}.`;
  const slot = formatDateTime(schedule.value.nextFree[0] ?? null, zone);
  return (
    `${add} takes the bot’s next free slot, ${slot} (${zone}); ` +
    `${next} gives the post that slot and moves the queued posts after it one slot later.`
  );
}
