// The workspace the user is in (Node, main process): the demo workspace on the embedded reference
// server, a real account, or offline drafts. Each has its own database, so demo posts can never be
// published to a real account. Electron's IPC and the web host both call through one Session.
import { join } from 'node:path';
import type { CheckedInput, MediaHost } from '../../shared/contract';
import type { TeamStatus } from '../../shared/team';
import type { CoreEvent } from '../../shared/answers';
import type { AccountSettings } from '../../shared/domain';
import { createPlatformClient } from '../platform/client';
import { PlatformError } from '../platform/errors';
import type { Plan } from '../platform/wire';
import { AccountFile, tokenHint } from './account';
import type { SecretStore } from './account';
import type { ConnectionReport } from '../../shared/connection';
import { checkConnection } from './connection';
import { seedDemoWorkspace } from './demo-workspace';
import { InvalidInput, NotAllowed, NotConnected } from './errors';
import { localPlatformProblem, publicOnlyFetch } from '../platform/public-address';
import { createTeamOn, TeamCreateRefused } from '../team-client/create';
import { TeamRefused } from '../team-client/connection';
import { joinTeam, refusedForVersion } from './team';
import { Workspace } from './workspace';
import type { WorkspaceConfig } from './workspace';
import { startWebhookReceiver } from './receiver';
import type { WebhookReceiver } from './receiver';

export interface DemoPlatform {
  apiBase: string;
  token: string;
  /** Where the demo publishes uploaded pictures from (its own web space; a new port each start). */
  mediaHost?: MediaHost;
  close(): Promise<void>;
}

export interface AccountInput {
  apiBase: string;
  token: string;
  plan: Plan;
}

export interface SessionOptions {
  /** The user-data folder: databases, account file, secrets. */
  folder: string;
  secrets: SecretStore;
  /** Starts the demo platform; without it, no account means offline drafts. */
  demo?: () => Promise<DemoPlatform>;
  /** An account for this run only (CLI flags, environment); not stored. */
  account?: AccountInput;
  /** The account workspace's database (CLI --db); by default workspace.sqlite in the folder. */
  dbFile?: string;
  /**
   * A native folder dialog (the desktop app's): the folder the user picked, or null when they
   * closed it. Without one (the web host), folders are named on the command line only.
   */
  pickFolder?: (title: string) => Promise<string | null>;
  /** Run the queue and pull sync in the background (default true). */
  watch?: boolean;
  /** Extra settings for every Workspace opened (tests: time, retry rules). */
  pressroom?: Partial<WorkspaceConfig>;
  /**
   * Let the page connect to a platform on this computer or its local network (serve
   * --local-platform, tests); by default only one on the internet (platform-address.ts).
   */
  allowLocalPlatform?: boolean;
  /**
   * Asks the user, outside the page, whether the connected account may be replaced by `to` (the
   * desktop app: a native dialog; serve: its terminal). Without it, a connected account stays.
   */
  confirmAccountSwitch?: (from: string, to: string) => Promise<boolean>;
}

export class Session {
  private pressroom!: Workspace;
  private dbFile = '';
  private mode: AccountSettings['mode'] = 'offline';
  private account: AccountInput | null = null;
  private demoPlatform: DemoPlatform | null = null;
  private receiver: WebhookReceiver | null = null;
  private stopWatching: (() => Promise<void>) | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly listeners = new Set<(event: CoreEvent) => void>();
  private readonly accountFile: AccountFile;
  private publicFetch: typeof fetch | null = null;

  private constructor(private readonly options: SessionOptions) {
    this.accountFile = new AccountFile(options.folder);
  }

  static async open(options: SessionOptions): Promise<Session> {
    const session = new Session(options);
    const stored = session.accountFile.read();
    const token = stored ? options.secrets.read() : null;
    const account = options.account ?? (stored && token ? { ...stored, token } : null);
    if (account) await session.switchTo('account', account);
    else if (options.demo && !options.dbFile) await session.switchTo('demo', null);
    else await session.switchTo('offline', null);
    return session;
  }

  /** The workspace every call goes to right now. */
  get current(): Workspace {
    return this.pressroom;
  }

  accountSettings(): AccountSettings {
    return {
      mode: this.mode,
      apiBase:
        this.mode === 'demo'
          ? (this.demoPlatform?.apiBase ?? null)
          : (this.account?.apiBase ?? null),
      tokenHint: this.mode === 'account' && this.account ? tokenHint(this.account.token) : null,
      plan: this.account?.plan ?? 'free',
    };
  }

  /** Follows the current workspace's events, across switches. */
  subscribe(listener: (event: CoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The page's door to an account: tests the token with one request, has the user confirm a
   * switch away from a connected account, then keeps the token (sealed) and opens the workspace.
   */
  async connect(input: AccountInput): Promise<AccountSettings> {
    const local = this.options.allowLocalPlatform
      ? null
      : await localPlatformProblem(input.apiBase);
    if (local) throw new InvalidInput([{ field: 'apiBase', message: local }]);
    await checkToken(input, this.accountFetch(input));
    await this.confirmSwitch(input.apiBase);
    this.options.secrets.write(input.token);
    this.accountFile.write({ apiBase: input.apiBase, plan: input.plan });
    await this.switchTo('account', input);
    return this.accountSettings();
  }

  /**
   * How an account the page connected reaches its platform: through public addresses only, each
   * connection checked as it opens (a name may resolve to a local address later). Null, the
   * ordinary fetch, for an account given on the command line or with local platforms allowed.
   */
  private accountFetch(account: AccountInput): typeof fetch | null {
    if (this.options.allowLocalPlatform || account === this.options.account) return null;
    this.publicFetch ??= publicOnlyFetch();
    return this.publicFetch;
  }

  /** Refuses to replace a connected account unless the user says so where the page cannot. */
  private async confirmSwitch(to: string): Promise<void> {
    if (this.mode !== 'account' || !this.account) return;
    const { confirmAccountSwitch } = this.options;
    if (!confirmAccountSwitch)
      throw new NotAllowed(
        'An account is connected already; to switch, use the desktop app or run serve with --allow-account-switch',
      );
    if (!(await confirmAccountSwitch(this.account.apiBase, to)))
      throw new NotAllowed('The connected account was kept: switching was not confirmed');
  }

  /** How the workspace's platform (the account's, or the demo's) speaks; offline has none. */
  async checkConnection(): Promise<ConnectionReport> {
    const target =
      this.mode === 'demo' && this.demoPlatform
        ? { apiBase: this.demoPlatform.apiBase, token: this.demoPlatform.token }
        : this.account;
    if (!target) throw new NotConnected();
    const fetch = this.mode === 'account' && this.account ? this.accountFetch(this.account) : null;
    const report = await checkConnection(target, fetch ? { fetch } : {});
    // A limit the platform does not state may have been learned from its answers already.
    report.rate_limit.limit ??= this.pressroom.governor.learned().limit;
    return report;
  }

  /** Sets the media host to a folder the native dialog picks, served at `publicBaseUrl`. */
  async chooseMediaFolder(publicBaseUrl: string): Promise<MediaHost | null> {
    if (!this.options.pickFolder)
      throw new NotAllowed(
        'A page in the browser cannot pick a folder on this computer; set it on the command line: npm run -s cli -- media host --folder DIR --url URL',
      );
    const folder = await this.options.pickFolder('The folder your web space serves pictures from');
    if (folder === null) return null;
    const host = { folder, publicBaseUrl };
    this.pressroom.media.setHost(host);
    return host;
  }

  /** Forgets the stored account and goes back to the demo workspace (or offline drafts). */
  /** Joins the open workspace to a team (docs/team.md) and reopens it in the team. */
  async joinTeam(input: CheckedInput<'joinTeam'>): Promise<TeamStatus | null> {
    this.requireTeamless();
    await joinTeam(this.pressroom.store, this.dbFile, input.link, input.token);
    await this.switchTo(this.mode, this.account);
    return this.pressroom.sharing.status();
  }

  /** Creates a team on a team server from the open workspace and joins it as its owner. */
  async createTeam(input: CheckedInput<'createTeam'>): Promise<TeamStatus | null> {
    this.requireTeamless();
    const { url, serverKey, name, owner } = input;
    const created = await createTeamOn(url, serverKey, { name, owner }).catch((error: unknown) => {
      if (error instanceof TeamCreateRefused)
        throw new InvalidInput([{ field: error.field, message: error.message }]);
      if (error instanceof TeamRefused && error.version) throw refusedForVersion(error);
      throw error;
    });
    return this.joinTeam({ link: created.link, token: created.token });
  }

  private requireTeamless(): void {
    if (this.mode === 'demo')
      throw new NotAllowed(
        'The demo workspace does not join a team: connect your account (or use no account) first.',
      );
    if (this.pressroom.team) throw new NotAllowed('This workspace is already in a team.');
  }

  async useDemo(): Promise<AccountSettings> {
    this.options.secrets.write(null);
    this.accountFile.write(null);
    await this.switchTo(this.options.demo ? 'demo' : 'offline', null);
    return this.accountSettings();
  }

  async close(): Promise<void> {
    await this.closeCurrent();
    await this.demoPlatform?.close();
    this.demoPlatform = null;
  }

  private async closeCurrent(): Promise<void> {
    if (!this.pressroom) return;
    this.unsubscribe?.();
    await this.stopWatching?.();
    this.stopWatching = null;
    await this.receiver?.close();
    this.receiver = null;
    this.pressroom.close();
  }

  private async switchTo(
    mode: AccountSettings['mode'],
    account: AccountInput | null,
  ): Promise<void> {
    await this.closeCurrent();
    const { folder } = this.options;
    let config: WorkspaceConfig;
    if (mode === 'demo' && this.options.demo) {
      this.demoPlatform ??= await this.options.demo();
      this.receiver = await startWebhookReceiver((delivery) =>
        this.pressroom.webhooks.receiveEvent(delivery),
      );
      config = {
        dbFile: join(folder, 'demo-workspace.sqlite'),
        apiBase: this.demoPlatform.apiBase,
        token: this.demoPlatform.token,
        receiver: { url: this.receiver.url, secret: this.receiver.secret },
      };
    } else {
      config = {
        dbFile: this.options.dbFile ?? join(folder, 'workspace.sqlite'),
        ...(account ? { apiBase: account.apiBase, token: account.token, plan: account.plan } : {}),
      };
      const fetch = account ? this.accountFetch(account) : null;
      if (fetch) config.fetch = fetch;
    }
    this.mode = mode;
    this.account = account;
    this.dbFile = config.dbFile;
    this.pressroom = new Workspace({ ...this.options.pressroom, ...config });
    if (mode === 'demo' && this.demoPlatform?.mediaHost)
      this.pressroom.media.setHost(this.demoPlatform.mediaHost);
    this.unsubscribe = this.pressroom.subscribe((event) => {
      for (const listener of this.listeners) listener(event);
    });
    if (this.pressroom.connected && this.options.watch !== false) {
      // The demo platform runs in this process: its first sync, done before the workspace is
      // handed out, does not compete with the first page's loading, and that page shows the
      // bakery's posts at once instead of an empty calendar first.
      const synced =
        mode === 'demo' &&
        (await this.pressroom.queue.sync().then(
          () => true,
          () => false,
        ));
      // Its bots are known now, so a new demo workspace can get work of its own to try things on.
      if (synced) seedDemoWorkspace(this.pressroom);
      let stop!: () => void;
      const stopped = new Promise<void>((resolve) => (stop = resolve));
      const watching = this.pressroom.queue.watch(stopped, undefined, synced);
      this.stopWatching = async () => {
        stop();
        await watching;
      };
    }
    for (const listener of this.listeners) listener({ type: 'changed', what: 'account' });
  }
}

/**
 * One cheap authenticated request: a refused token or an unreachable URL is the user's to fix.
 * The messages name the status alone, never what the server said: that text is another
 * service's, and may hold anything (a stand-in on a private address answered with a password).
 */
async function checkToken(
  account: AccountInput,
  fetch: typeof globalThis.fetch | null,
): Promise<void> {
  const client = createPlatformClient({
    baseUrl: account.apiBase,
    token: account.token,
    timeoutMs: 10_000,
    ...(fetch ? { fetch } : {}),
    // The address was checked, not where a redirect from it leads (a router, a local service).
    followRedirects: false,
  });
  try {
    await client.listBots({ per_page: 1 });
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    if (error.status === 401 || error.status === 403)
      throw new InvalidInput([
        {
          field: 'token',
          message: `was refused by the platform (${error.status}); copy it again from the account's API Keys settings`,
        },
      ]);
    if (error.status === null)
      throw new InvalidInput([
        {
          field: 'apiBase',
          message: `${error.kind === 'timeout' ? 'did not answer in time' : 'could not be reached'}; check the URL and your connection`,
        },
      ]);
    throw new InvalidInput([
      {
        field: 'apiBase',
        message: `answered ${error.status}; is it the platform's API v1 base URL?`,
      },
    ]);
  }
}
