// A bot's weekly posting schedule as the Bots screen edits it (browser): a grid of weekdays and
// times and the same schedule as text, kept in step both ways; saved through setSchedule, with the
// core's refusal shown at the text; and the zone and next free slots the core reports.
import type { BotSchedule } from '../../../shared/domain';
import {
  WEEKDAYS,
  emptySchedule,
  formatSchedule,
  parseSchedule,
  type WeeklySchedule,
} from '../../../shared/schedule';
import { formErrors } from './forms';
import type { Shell } from './shell.svelte';

/** The grid's row names, Monday first as the schedule is. */
export const DAY_NAMES = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

const WORKDAYS = [0, 1, 2, 3, 4];

export class ScheduleEditor {
  /** The grid: seven sorted lists of "HH:MM", Monday first. */
  days = $state.raw<WeeklySchedule>(emptySchedule());
  /** Each row's time field, before Add puts it in the grid. */
  newTimes = $state<string[]>(WEEKDAYS.map(() => ''));
  /** Why the text cannot be read (here or by the core), shown at the text field. */
  textError = $state<string | null>(null);
  /** The schedule as the core last answered it: zone and next free slots. */
  saved = $state.raw<BotSchedule | null>(null);
  /** The core's message when the schedule could not be read, or saved for another reason. */
  failure = $state<string | null>(null);
  saving = $state(false);
  private typed = $state('');

  /** Whether the grid differs from what is saved. */
  readonly changed = $derived(this.saved !== null && formatSchedule(this.days) !== this.saved.text);

  constructor(
    private readonly shell: Shell,
    readonly botId: string,
    readonly botName: string,
  ) {}

  /** The schedule as text; the grid follows what is typed whenever it reads. */
  get text(): string {
    return this.typed;
  }

  set text(text: string) {
    this.typed = text;
    const parsed = parseSchedule(text);
    this.textError = parsed.ok ? null : parsed.reason;
    if (parsed.ok) this.days = parsed.value;
  }

  /** The zone the times are in: the workspace's, as the core reported it. */
  get zone(): string {
    return this.saved?.zone ?? this.shell.timezone;
  }

  async load(): Promise<void> {
    const result = await this.shell.api.getSchedule({ botId: this.botId });
    if (result.ok) this.show(result.value);
    else this.failure = result.error.message;
  }

  /** Adds the row's typed time to a day (once: the grid keeps each time once, sorted). */
  addTime(day: number): void {
    const time = this.newTimes[day] ?? '';
    if (!time) return;
    this.edit(day, (times) => (times.includes(time) ? times : [...times, time].sort()));
    this.newTimes[day] = '';
  }

  removeTime(day: number, time: string): void {
    this.edit(day, (times) => times.filter((candidate) => candidate !== time));
  }

  /** Monday's times on every workday, the usual start of a schedule. */
  copyMondayToWorkdays(): void {
    const monday = this.days[0] ?? [];
    this.setDays(this.days.map((times, day) => (WORKDAYS.includes(day) ? [...monday] : times)));
  }

  clear(): void {
    this.setDays(emptySchedule());
  }

  private edit(day: number, change: (times: string[]) => string[]): void {
    this.setDays(this.days.map((times, index) => (index === day ? change(times) : times)));
  }

  /** A grid change writes the text afresh, which reads back as the same grid. */
  private setDays(days: WeeklySchedule): void {
    this.days = days;
    this.typed = formatSchedule(days);
    this.textError = null;
  }

  private show(schedule: BotSchedule): void {
    this.saved = schedule;
    this.setDays(schedule.days);
    this.failure = null;
  }

  /** Saves the text as typed (so the core's reason names the part typed); true once saved. */
  async save(): Promise<boolean> {
    const parsed = parseSchedule(this.typed);
    if (!parsed.ok) this.textError = parsed.reason;
    if (!parsed.ok || this.saving) return false;
    this.saving = true;
    const result = await this.shell.api.setSchedule({ botId: this.botId, schedule: this.typed });
    this.saving = false;
    if (!result.ok) {
      const errors = formErrors(result.error, ['schedule']);
      this.textError = errors.fields.schedule ?? null;
      this.failure = errors.form;
      return false;
    }
    this.show(result.value);
    this.shell.notices.show(
      'success',
      result.value.text
        ? `Posting schedule of ${this.botName} saved`
        : `${this.botName} has no posting schedule now`,
    );
    return true;
  }
}
