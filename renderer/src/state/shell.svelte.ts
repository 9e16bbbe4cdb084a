// The app-wide state (browser): the screen shown, the core's status and settings, and the one
// event stream every screen listens to. Screens keep their own state in their own modules.
import type { CallResult, CoreEvent } from '../../../shared/answers';
import type { AccountSettings, Status, WorkspaceSettings } from '../../../shared/domain';
import type { Api, Transport } from '../lib/api';
import { createApi, unwrap } from '../lib/api';
import { DuplicateGuard } from './duplicates.svelte';
import { Notices } from './notices.svelte';

export const SCREENS = [
  { id: 'calendar', label: 'Calendar' },
  { id: 'catalog', label: 'Catalog' },
  { id: 'import', label: 'Import' },
  { id: 'queue', label: 'Queue' },
  { id: 'review', label: 'Review' },
  { id: 'orders', label: 'Orders' },
  { id: 'subscribers', label: 'Subscribers' },
  { id: 'bots', label: 'Bots' },
  { id: 'ai', label: 'AI usage' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'settings', label: 'Settings' },
] as const;
export type ScreenId = (typeof SCREENS)[number]['id'];

/** What an address asks for: `#/<screen>`, `#/calendar/new` for a new post (the desktop menu's
 * New Post opens the app at such an address), `#/calendar/post/<id>` for a post (a notification's
 * click). */
function routeFromHash(): { screen: ScreenId; newPost: boolean; postId: number | null } {
  const [id, action, postId] = location.hash.replace(/^#\/?/, '').split('/');
  const screen = SCREENS.find((candidate) => candidate.id === id)?.id ?? 'calendar';
  const onCalendar = screen === 'calendar';
  const post =
    onCalendar && action === 'post' && /^\d{1,15}$/.test(postId ?? '') ? Number(postId) : null;
  return { screen, newPost: onCalendar && action === 'new', postId: post };
}

export class Shell {
  readonly api: Api;
  readonly notices = new Notices();
  /** Asks before a post repeats another one's text; one dialog for the whole app answers it. */
  readonly duplicates = new DuplicateGuard();
  screen = $state<ScreenId>('calendar');
  /** Set when an address asked for a new post; the Calendar screen opens its editor and clears it. */
  newPostRequested = $state(false);
  /** A post an address or a notice asked to open; the Calendar screen opens its editor and clears it. */
  postRequested = $state<number | null>(null);
  /** A day ("2026-11-23") another screen asked the Calendar to show; it goes there and clears it. */
  calendarDate = $state<string | null>(null);
  status = $state.raw<Status | null>(null);
  settings = $state.raw<(WorkspaceSettings & { account: AccountSettings }) | null>(null);
  /** False when the core itself (not the platform) stopped answering. */
  reachable = $state(true);
  // Subscribers to core events, not state: nothing renders from this set.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly listeners = new Set<(event: CoreEvent) => void>();
  private stopEvents: (() => void) | null = null;
  private readonly followHash = () => this.route();
  private statusTimer: ReturnType<typeof setInterval> | null = null;
  private statusReading: Promise<void> | null = null;
  private statusStale = false;

  constructor(private readonly transport: Transport) {
    this.api = createApi(transport);
    this.route();
  }

  /** Sends a file for an import to the core (Transport.upload); answers the id it is kept under. */
  async upload(file: File): Promise<CallResult<{ upload: string }>> {
    return this.transport.upload(file.name, await file.arrayBuffer());
  }

  /** Follows the address: the desktop menu changes it while the app is open. */
  private route(): void {
    const { screen, newPost, postId } = routeFromHash();
    this.screen = screen;
    if (postId !== null) this.openPost(postId);
    if (!newPost) return;
    this.newPostRequested = true;
    // Back to the plain screen address, so the next New Post changes the address again.
    history.replaceState(null, '', `#/${screen}`);
  }

  /** Opens a new post's editor on the Calendar, from any screen (the `c` key). */
  requestNewPost(): void {
    this.go('calendar');
    this.newPostRequested = true;
  }

  /**
   * The zone times are shown in: the user's setting, else this machine's. Derived, so re-reading
   * the settings (every save, every account change) redraws nothing unless the zone changed.
   */
  readonly timezone = $derived(
    this.settings?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  );

  async start(): Promise<void> {
    this.stopEvents = this.transport.events((event) => {
      if (event.type === 'changed' && (event.what === 'settings' || event.what === 'account'))
        void this.loadSettings();
      for (const listener of this.listeners) listener(event);
      this.refreshStatusSoon();
    });
    addEventListener('hashchange', this.followHash);
    await Promise.all([this.loadSettings(), this.refreshStatus()]);
    this.statusTimer = setInterval(() => void this.refreshStatus(), 2_000);
  }

  stop(): void {
    removeEventListener('hashchange', this.followHash);
    this.stopEvents?.();
    if (this.statusTimer) clearInterval(this.statusTimer);
  }

  /** Follows the core's events; returns the way to stop (use it in an $effect's cleanup). */
  onEvent(listener: (event: CoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Opens a post's editor on the Calendar, from any screen (a failure's notice, a notification). */
  openPost(id: number): void {
    this.go('calendar');
    this.postRequested = id;
  }

  /** Opens the Calendar at a wall day (e.g. an import's first post). */
  showOnCalendar(day: string): void {
    this.calendarDate = day;
    this.go('calendar');
  }

  go(screen: ScreenId): void {
    this.screen = screen;
    history.replaceState(null, '', `#/${screen}`);
  }

  async loadSettings(): Promise<void> {
    const result = await this.api.getSettings();
    if (result.ok) this.settings = result.value;
    else this.notices.error(result.error.message, 'Could not read the settings');
  }

  /**
   * Reads the status once for a burst of events: while a read is under way, events ask for one
   * more read after it, not one each (a publishing pass sends hundreds).
   */
  private refreshStatusSoon(): void {
    if (this.statusReading) {
      this.statusStale = true;
      return;
    }
    this.statusReading = this.refreshStatus().finally(() => {
      this.statusReading = null;
      if (!this.statusStale) return;
      this.statusStale = false;
      this.refreshStatusSoon();
    });
  }

  async refreshStatus(): Promise<void> {
    const result = await this.api.status();
    this.reachable = result.ok || result.error.kind !== 'internal';
    if (result.ok) this.status = result.value;
  }

  /** Runs a call, shows its error if it fails, and returns its value or undefined. */
  async attempt<T>(call: Promise<CallResult<T>>, doing: string): Promise<T | undefined> {
    try {
      return unwrap(await call);
    } catch (error) {
      this.notices.error(error, doing);
      return undefined;
    }
  }
}
