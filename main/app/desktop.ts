// The native parts of the app that are plain data (Electron main process): the application
// menu, the tray's summary and menu of the queue, and which core events become notifications.
// shell.ts hands them to Electron; tests read them as they are.
import type { CoreEvent } from '../../shared/answers';
import type { OutboxItem, Status } from '../../shared/domain';
import { describeFailure, publishes } from '../../shared/failures';
import { reviewNoticeWords } from '../../shared/team-status';
import { clipped } from '../../shared/text';
import type { MenuItemOptions, NotificationOptions } from './electron-api';

/**
 * Screens the menu and notifications open, by the renderer's `#/<screen>` address
 * (`calendar/new`: a new post; `calendar/post/<id>`: that post in its editor).
 */
export type MenuScreen =
  | 'calendar'
  | 'calendar/new'
  | `calendar/post/${number}`
  | 'catalog'
  | 'queue'
  | 'import'
  | 'settings';

export interface MenuActions {
  showScreen(screen: MenuScreen): void;
  newPost(): void;
  importCsv(): void;
  exportCsv(kind: 'posts' | 'products'): void;
}

/**
 * The menu bar. `packaged` (app.isPackaged): an installed build has no Toggle DevTools, so the
 * page's internals and the console stay closed to whoever sits at the machine.
 */
export function applicationMenu(
  actions: MenuActions,
  platform: NodeJS.Platform,
  packaged: boolean,
): MenuItemOptions[] {
  const file: MenuItemOptions = {
    label: 'File',
    submenu: [
      { label: 'New Post', accelerator: 'CmdOrCtrl+N', click: () => actions.newPost() },
      { label: 'Import CSV…', accelerator: 'CmdOrCtrl+O', click: () => actions.importCsv() },
      {
        label: 'Export Posts as CSV…',
        accelerator: 'CmdOrCtrl+Shift+E',
        click: () => actions.exportCsv('posts'),
      },
      { label: 'Export Products as CSV…', click: () => actions.exportCsv('products') },
      { type: 'separator' },
      // macOS has Settings in the app menu, as its users expect; others in File.
      ...(platform === 'darwin'
        ? []
        : [
            settingsItem(actions),
            { type: 'separator' as const },
            { role: 'quit' as const, accelerator: 'Ctrl+Q' },
          ]),
      ...(platform === 'darwin' ? [{ role: 'close' as const }] : []),
    ],
  };
  const view: MenuItemOptions = {
    label: 'View',
    submenu: [
      {
        label: 'Calendar',
        accelerator: 'CmdOrCtrl+1',
        click: () => actions.showScreen('calendar'),
      },
      { label: 'Catalog', accelerator: 'CmdOrCtrl+2', click: () => actions.showScreen('catalog') },
      { label: 'Queue', accelerator: 'CmdOrCtrl+3', click: () => actions.showScreen('queue') },
      { type: 'separator' },
      { role: 'reload' },
      ...(packaged ? [] : [{ role: 'toggleDevTools' as const }]),
      { role: 'togglefullscreen' },
    ],
  };
  const appMenu: MenuItemOptions = {
    label: 'Pressroom',
    submenu: [
      { role: 'about' },
      { type: 'separator' },
      settingsItem(actions),
      { type: 'separator' },
      { role: 'quit' },
    ],
  };
  return [
    ...(platform === 'darwin' ? [appMenu] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
  ];
}

function settingsItem(actions: MenuActions): MenuItemOptions {
  return {
    label: 'Settings…',
    accelerator: 'CmdOrCtrl+,',
    click: () => actions.showScreen('settings'),
  };
}

export interface TrayActions {
  showWindow(): void;
  pause(): void;
  resume(): void;
  quit(): void;
}

/** The queue as the tray shows it; `connected` is false for offline drafts (no queue runs). */
export interface QueueState {
  status: Status;
  connected: boolean;
}

/** One line for the tray's tooltip and menu: what the queue is doing. */
export function queueSummary({ status, connected }: QueueState): string {
  if (!connected) return 'Pressroom: offline drafts (no account)';
  const { outbox, paused } = status;
  const waiting = outbox.queued + outbox.retrying;
  const parts = [
    paused ? `paused (${paused})` : outbox.sending > 0 ? `sending ${outbox.sending}` : 'running',
    `${waiting} waiting`,
    ...(outbox.failed > 0 ? [`${outbox.failed} failed`] : []),
  ];
  return `Pressroom: ${parts.join(', ')}`;
}

export function trayMenu(state: QueueState, actions: TrayActions): MenuItemOptions[] {
  const { connected } = state;
  return [
    { label: queueSummary(state), enabled: false },
    { type: 'separator' },
    { label: 'Open Pressroom', click: () => actions.showWindow() },
    state.status.paused
      ? { label: 'Resume Queue', enabled: connected, click: () => actions.resume() }
      : { label: 'Pause Queue', enabled: connected, click: () => actions.pause() },
    { type: 'separator' },
    { label: 'Quit Pressroom', click: () => actions.quit() },
  ];
}

/** What a queue event is about, in a few words: the post's text or the product's name. */
function subject(kind: OutboxItem['kind'], words: string | null): string {
  const what = kind === 'create_product' ? 'Product' : 'Post';
  const clean = (words ?? '').replace(/\s+/g, ' ').trim();
  if (!clean) return what;
  return `${what} “${clipped(clean, 60)}”`;
}

/** A desktop notification and the screen a click on it opens. */
export interface DesktopNotification {
  options: NotificationOptions;
  opens: MenuScreen;
}

/** What a notification is about: a post or a product, by its id here. */
export type NotificationSubject = Pick<OutboxItem, 'postId' | 'productId'>;

/**
 * Published, failed and missed posts and products notify, and so does a post sent to me for
 * review or back to me; the rest is the screens'. A failure is told in plain words with what to do
 * (the platform's own text is in the Queue), and a click opens the post itself, or the Queue for a
 * product. `words` finds the post's text or the product's name (an event only points at it).
 */
export function notificationFor(
  event: CoreEvent,
  words: (subject: NotificationSubject) => string | null,
): DesktopNotification | null {
  if (event.type === 'review') {
    const about = subject('create_post', words({ postId: event.postId, productId: null }));
    return { options: reviewNoticeWords(event, about), opens: `calendar/post/${event.postId}` };
  }
  if (event.type !== 'done' && event.type !== 'failed' && event.type !== 'missed') return null;
  const { item } = event;
  if (!publishes(item.kind)) return null;
  const about = subject(item.kind, words(item));
  const opens: MenuScreen = item.postId !== null ? `calendar/post/${item.postId}` : 'queue';
  const note = (title: string, body: string) => ({ options: { title, body }, opens });
  switch (event.type) {
    case 'done':
      return note('Published', `${about} is live.`);
    case 'failed':
      return note(
        'Publishing failed',
        `${about}: ${describeFailure({ kind: item.kind, reason: event.reason, fieldErrors: event.fieldErrors })}`,
      );
    case 'missed':
      return note(
        'Missed its time',
        `${about} was not sent on time (the computer was asleep or off). Publish it now or reschedule it.`,
      );
  }
}
