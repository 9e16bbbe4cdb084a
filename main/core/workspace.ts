// The workspace (Node, main process): the composition root the operation table, the CLI and tests
// reach the core services through. It opens one workspace's store, builds its governed platform
// client, publisher, scheduler and pull sync, hands each service what it needs, and closes it all.
import type { PublishGate } from '../queue/publish-gate';
import type { CoreEvent } from '../../shared/answers';
import { Publisher } from '../queue/publisher';
import type { PublisherEvent } from '../queue/publisher';
import type { RateGovernor } from '../platform/governor';
import type { RetryRules } from '../queue/retry';
import { Scheduler } from '../queue/scheduler';
import type { Heartbeat } from '../queue/scheduler';
import { WorkspaceStore } from '../store';
import type { TeamWorkspace } from '../team-client/workspace';
import { openTeamSide } from './team';
import { TeamOutbox } from './team-outbox';
import { PullSync, pageRetries } from '../sync/pull';
import { exportCsv } from '../csv/export';
import { importCsv, previewCsv } from '../csv/import';
import type { Plan } from '../platform/wire';
import { CoreEvents } from './events';
import { GovernedClient } from './governed-client';
import { Outbox } from './outbox';
import { LEASE_STALE_MS, PublishingLease } from './publishing-lease';
import { AiService } from './services/ai';
import { BotsService } from './services/bots';
import { CatalogService } from './services/catalog';
import { ImportsService } from './services/imports';
import { MediaService } from './services/media';
import { PeopleService } from './services/people';
import { PlanningService } from './services/planning';
import { PostsService } from './services/posts';
import { ReviewService } from './services/review';
import { QueueService } from './services/queue';
import { SettingsService } from './services/settings';
import { TeamService } from './services/team';
import { TeamHistoryService } from './services/team-history';
import { WebhooksService } from './services/webhooks';
import type { OwnReceiver } from './services/webhooks';

export interface WorkspaceConfig {
  dbFile: string;
  apiBase?: string | undefined;
  token?: string | undefined;
  plan?: Plan;
  windowMs?: number;
  graceMs?: number;
  timeoutMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
  onEvent?: (event: PublisherEvent) => void;
  /** A publishing pass that failed as a whole (the database, not a post); stderr by default. */
  onError?: (error: unknown) => void;
  retryRules?: RetryRules;
  /** How long another holder's lease beat must stand still before this process takes over. */
  leaseStaleMs?: number;
  /** This workspace's own webhook receiver (the demo workspace has one). */
  receiver?: OwnReceiver;
  /** When the publisher is woken besides changes and precise timers; every second by default. */
  heartbeat?: Heartbeat;
}

/** A failed publishing pass is never silent: the next tick tries again, and this says why. */
function reportDrainError(error: unknown): void {
  console.error(
    `Publishing pass failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** The CSV reader and writer bound to this workspace's store, as the imports service takes them. */
function csvOf(store: WorkspaceStore) {
  return {
    importCsv: importCsv.bind(null, store),
    previewCsv: previewCsv.bind(null, store),
    exportCsv: exportCsv.bind(null, store),
  };
}

export class Workspace {
  readonly store: WorkspaceStore;
  /** The team this workspace is shared with, when it was joined to one (docs/team.md). */
  readonly team: TeamWorkspace | undefined;
  /** The outbox's owner: every service's write to it goes through here. */
  readonly outbox: Outbox;
  readonly governor: RateGovernor;
  readonly settings: SettingsService;
  readonly queue: QueueService;
  readonly posts: PostsService;
  readonly review: ReviewService;
  readonly planning: PlanningService;
  readonly bots: BotsService;
  readonly people: PeopleService;
  readonly catalog: CatalogService;
  readonly imports: ImportsService;
  readonly ai: AiService;
  readonly webhooks: WebhooksService;
  readonly media: MediaService;
  /** The team as Settings → Team, the banner and the editor see it. */
  readonly sharing: TeamService;
  /** Who in the team did what to a post. */
  readonly teamHistory: TeamHistoryService;
  private readonly events = new CoreEvents();
  /** Another desktop's change to these rows: the screens that show them reload. */
  private readonly reloadScreens = (what: 'posts' | 'products' | 'schedules') =>
    this.events.emit({ type: 'changed', what });
  /** Stops keeping the team's scheduled posts in this desktop's outbox. */
  private readonly stopTeamOutbox: () => void;
  private readonly platform: GovernedClient;
  private readonly lease: PublishingLease;

  constructor(config: WorkspaceConfig) {
    const now = config.now ?? Date.now;
    const { events } = this;
    const store = WorkspaceStore.open(config.dbFile, now);
    this.store = store;
    store.imports.abandonStale();
    this.platform = new GovernedClient(store, now, config);
    this.governor = this.platform.governor;
    // A post due at 09:00 goes when the platform's clock says 09:00, whatever this computer's says.
    store.outbox.judgeDueTimesBy(() => this.governor.dueTimeLeadMs);
    this.lease = new PublishingLease(store, config.leaseStaleMs);
    this.settings = new SettingsService(store, events);
    this.media = new MediaService(store);
    const client = this.platform.client;
    const team = openTeamSide(store, config.dbFile, now, this.reloadScreens);
    this.team = team.workspace;
    this.sharing = new TeamService(this.team);
    const publisher = this.publisherOf(config, now, team.gate);
    const puller = client
      ? new PullSync(
          store,
          client,
          this.governor,
          config.retryRules && pageRetries(config.retryRules),
        )
      : null;
    const scheduler = publisher
      ? new Scheduler({
          publisher,
          store,
          now,
          onError: config.onError ?? reportDrainError,
          ...(config.heartbeat ? { heartbeat: config.heartbeat } : {}),
        })
      : null;
    const outbox = new Outbox(store.outbox, now, events, scheduler);
    this.outbox = outbox;
    this.queue = new QueueService(
      store,
      outbox,
      now,
      events,
      this.platform,
      this.media,
      this.sharing,
      {
        publisher,
        scheduler,
        puller,
        // Long enough to see a silent holder go stale, with time to spare.
        leaseWaitMs: 2 * (config.leaseStaleMs ?? LEASE_STALE_MS),
      },
    );
    this.posts = new PostsService(store, outbox, now, events, this.settings, this.media, (post) =>
      this.team?.approvalWait(post.id, post.botId),
    );
    this.teamHistory = new TeamHistoryService(this.posts, this.team);
    this.stopTeamOutbox = this.team
      ? new TeamOutbox(store, outbox, this.posts, this.team, now).follow()
      : () => undefined;
    this.bots = new BotsService(store, outbox, this.posts);
    this.review = new ReviewService(this.team, store.posts, events);
    this.planning = new PlanningService(
      store,
      outbox,
      now,
      events,
      this.settings,
      this.posts,
      this.bots,
      this.media,
    );
    this.people = new PeopleService(store, outbox, now, this.platform);
    this.catalog = new CatalogService(store, outbox, now, events, this.settings);
    this.imports = new ImportsService(store, csvOf(store), outbox, now, events, this.settings);
    this.ai = new AiService(store, now, events, this.platform, this.settings, this.planning);
    this.webhooks = new WebhooksService(store, events, this.platform, config.receiver ?? null);
  }

  /** The publisher of a connected workspace (none without an account), through the team's gate. */
  private publisherOf(config: WorkspaceConfig, now: () => number, gate?: PublishGate) {
    const client = this.platform.client;
    if (!client) return null;
    const { events } = this;
    const publisher = new Publisher({
      store: this.store,
      client,
      governor: this.governor,
      now,
      graceMs: config.graceMs ?? this.settings.graceMinutes() * 60_000,
      onEvent: (event) => {
        config.onEvent?.(event);
        events.emit(event);
      },
      ...(config.retryRules ? { rules: config.retryRules } : {}),
      lease: this.lease,
      publicMediaUrls: (urls) => this.media.publicUrls(urls),
      ...(gate ? { gate } : {}),
    });
    this.lease.onLost = (reason) => publisher.standBy(reason);
    return publisher;
  }

  /** True when a platform account (base URL and token) is set. */
  get connected(): boolean {
    return this.platform.client !== null;
  }

  /** Follows the workspace's events (the UI's live view); returns the way to stop. */
  subscribe(listener: (event: CoreEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  private closed = false;

  /** Closes the workspace; a second close does nothing (a quit and a test's cleanup may both ask). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTeamOutbox();
    this.team?.close();
    this.lease.release();
    this.imports.close();
    this.store.close();
  }
}
