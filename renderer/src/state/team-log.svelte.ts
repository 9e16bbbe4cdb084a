// The team's audit log on the Review screen (browser): its latest entries, one person's or
// everyone's, and the same as a CSV file (teamLog's CSV, the columns `team log --csv` writes).
import type { TeamLogEntry } from '../../../shared/team';
import type { Shell } from './shell.svelte';

/** The latest entries the screen shows; the CSV has up to the contract's 10,000. */
const SHOWN = 20;
const EXPORTED = 10_000;

export interface LogPerson {
  id: string;
  name: string;
}

export class TeamLogState {
  /** Newest first. */
  entries = $state.raw<TeamLogEntry[]>([]);
  /** Everyone in the unfiltered log, for the filter. */
  people = $state.raw<LogPerson[]>([]);
  /** The member shown ('' for everyone). */
  member = $state('');
  error = $state<string | null>(null);
  exporting = $state(false);

  constructor(private readonly shell: Shell) {}

  async load(): Promise<void> {
    const result = await this.shell.api.teamLog({ limit: SHOWN, ...this.filter() });
    if (!result.ok) {
      this.error = result.error.message;
      return;
    }
    this.error = null;
    this.entries = [...result.value.entries].reverse();
    if (this.member === '') this.people = peopleOf(result.value.entries);
  }

  async show(member: string): Promise<void> {
    this.member = member;
    await this.load();
  }

  /** The log (one person's, when filtered) as CSV, and the file's name; undefined on a failure. */
  async csv(): Promise<{ fileName: string; csv: string } | undefined> {
    this.exporting = true;
    try {
      const value = await this.shell.attempt(
        this.shell.api.teamLog({ format: 'csv', limit: EXPORTED, ...this.filter() }),
        'Could not export the team log',
      );
      if (!value) return undefined;
      const suffix = this.member === '' ? '' : `-${this.member}`;
      return { fileName: `team-log${suffix}.csv`, csv: value.csv ?? '' };
    } finally {
      this.exporting = false;
    }
  }

  private filter(): { member?: string } {
    return this.member === '' ? {} : { member: this.member };
  }
}

function peopleOf(entries: readonly TeamLogEntry[]): LogPerson[] {
  const names = new Map(entries.map((entry) => [entry.member, entry.name]));
  return [...names]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
