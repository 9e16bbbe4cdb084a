// The settings screen's state (browser): the account (connect a real one, or go back to the demo),
// the workspace's settings form, and the theme, which applies the moment it is chosen.
import type { MediaHost, PLAN_NAMES } from '../../../shared/contract';
import type { CallResult } from '../../../shared/answers';
import { MediaQuery } from 'svelte/reactivity';
import { describeConnection } from '../../../shared/connection';
import { LIMITS } from '../../../shared/limits';
import type { AccountSettings, BotSummary, Theme, WorkspaceSettings } from '../../../shared/domain';
import { checkInput, formErrors, noErrors, type FormErrors } from './forms';
import type { Shell } from './shell.svelte';

export type Plan = (typeof PLAN_NAMES)[number];

export const ACCOUNT_MODE_LABELS: Record<AccountSettings['mode'], string> = {
  demo: 'Demo workspace on the built-in reference server',
  account: 'Your platform account',
  offline: 'No account: drafts are kept on this computer',
};

export const ACCOUNT_FIELDS = ['apiBase', 'token', 'plan'] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];
export const WORKSPACE_FIELDS = [
  'timezone',
  'graceMinutes',
  'defaultCurrency',
  'defaultBotId',
  'duplicateWindowDays',
] as const;
export type WorkspaceField = (typeof WORKSPACE_FIELDS)[number];

export interface WorkspaceDraft {
  timezone: string;
  /** A number input's value: null while it is empty. */
  graceMinutes: number | null;
  defaultCurrency: string;
  /** '' for no default bot, as the select holds it. */
  defaultBotId: string;
  /** A number input's value: null while it is empty. */
  duplicateWindowDays: number | null;
}

/**
 * Why a typed duplicate window cannot be saved, or null. Said here in days, since the core's
 * check words it as a bare number range.
 */
export function duplicateWindowProblem(days: number | null): string | null {
  if (days === null) return 'is required';
  if (!Number.isInteger(days) || days < 0 || days > LIMITS.duplicateWindowDays)
    return `must be a whole number of days from 0 (off) to ${LIMITS.duplicateWindowDays}`;
  return null;
}

/** The OS's light or dark, followed live as it changes: what the "system" theme shows. */
export class SystemTheme {
  readonly #dark = new MediaQuery('(prefers-color-scheme: dark)');

  /** The palette a theme shows. The page wears it, so each palette is written once in CSS. */
  resolve(theme: Theme): 'light' | 'dark' {
    if (theme !== 'system') return theme;
    return this.#dark.current ? 'dark' : 'light';
  }
}

export class SettingsState {
  bots = $state.raw<BotSummary[]>([]);
  /** The workspace form; null until the settings have been read. */
  draft = $state<WorkspaceDraft | null>(null);
  workspaceErrors = $state.raw<FormErrors<WorkspaceField>>(noErrors());
  saving = $state(false);
  connection = $state<{ apiBase: string; token: string; plan: Plan }>({
    apiBase: '',
    token: '',
    plan: 'free',
  });
  connectErrors = $state.raw<FormErrors<AccountField>>(noErrors());
  connecting = $state(false);
  /** The last connection test's findings, a sentence each; null before one. */
  connectionCheck = $state.raw<string[] | null>(null);
  checkingConnection = $state(false);
  /** Where uploaded pictures are published from: null for nowhere yet, undefined until read. */
  mediaHost = $state.raw<MediaHost | null | undefined>(undefined);
  /** The address the folder about to be chosen is served at, as typed. */
  mediaHostUrl = $state('');
  choosingFolder = $state(false);
  /** Why the media host was not set (a bad address, or no folder dialog in a browser). */
  mediaHostError = $state<string | null>(null);

  constructor(private readonly shell: Shell) {}

  get account(): AccountSettings | null {
    return this.shell.settings?.account ?? null;
  }

  get theme(): Theme {
    return this.shell.settings?.theme ?? 'system';
  }

  /** Reads the settings and bots afresh and starts both forms from them. */
  async load(): Promise<void> {
    await Promise.all([this.shell.loadSettings(), this.loadBots(), this.loadMediaHost()]);
    const settings = this.shell.settings;
    if (!settings) return;
    this.draft = {
      timezone: settings.timezone,
      graceMinutes: settings.graceMinutes,
      defaultCurrency: settings.defaultCurrency,
      defaultBotId: settings.defaultBotId ?? '',
      duplicateWindowDays: settings.duplicateWindowDays,
    };
    this.workspaceErrors = noErrors();
    // The connect form starts from the connected account, unless the user has typed already.
    const { account } = settings;
    if (account.mode === 'account' && this.connection.apiBase === '')
      this.connection = { ...this.connection, apiBase: account.apiBase ?? '', plan: account.plan };
  }

  async loadMediaHost(): Promise<void> {
    const host = await this.shell.attempt(
      this.shell.api.getMediaHost({}),
      'Could not read where pictures are published from',
    );
    if (host !== undefined) this.mediaHost = host;
  }

  /** Picks the media host's folder in the desktop app's dialog, served at the typed address. */
  async chooseMediaFolder(): Promise<void> {
    if (this.choosingFolder) return;
    this.choosingFolder = true;
    this.mediaHostError = null;
    try {
      const result = await this.shell.api.chooseMediaFolder({
        publicBaseUrl: this.mediaHostUrl.trim(),
      });
      if (!result.ok) this.mediaHostError = result.error.message;
      else if (result.value) {
        this.mediaHost = result.value;
        this.shell.notices.show('success', 'Uploaded pictures will be published from that folder');
      }
    } finally {
      this.choosingFolder = false;
    }
  }

  async loadBots(): Promise<void> {
    const bots = await this.shell.attempt(this.shell.api.listBots({}), 'Could not list the bots');
    if (bots) this.bots = bots;
  }

  async saveWorkspace(): Promise<void> {
    const draft = this.draft;
    if (!draft) return;
    const windowProblem = duplicateWindowProblem(draft.duplicateWindowDays);
    if (draft.graceMinutes === null || draft.duplicateWindowDays === null || windowProblem) {
      const fields: FormErrors<WorkspaceField>['fields'] = {};
      if (draft.graceMinutes === null) fields.graceMinutes = 'is required';
      if (windowProblem) fields.duplicateWindowDays = windowProblem;
      this.workspaceErrors = { fields, form: null };
      return;
    }
    const input = {
      timezone: draft.timezone,
      graceMinutes: draft.graceMinutes,
      defaultCurrency: draft.defaultCurrency.trim().toUpperCase(),
      defaultBotId: draft.defaultBotId || null,
      duplicateWindowDays: draft.duplicateWindowDays,
    };
    const problems = await checkInput('saveSettings', input, WORKSPACE_FIELDS);
    this.workspaceErrors = problems ?? noErrors();
    if (problems) return;
    this.saving = true;
    const result = await this.patch(input);
    this.saving = false;
    if (result.ok) {
      draft.defaultCurrency = result.value.defaultCurrency;
      this.shell.notices.show('success', 'Settings saved');
    } else this.workspaceErrors = formErrors(result.error, WORKSPACE_FIELDS);
  }

  /** Applies the theme at once; goes back to the previous one if the core refuses it. */
  async setTheme(theme: Theme): Promise<void> {
    const result = await this.patch({ theme });
    if (!result.ok) this.shell.notices.error(result.error.message, 'Could not change the theme');
  }

  /** The core tests the token with the platform before it keeps it. */
  async connect(): Promise<void> {
    const input = { ...this.connection, apiBase: this.connection.apiBase.trim() };
    const problems = await checkInput('connectAccount', input, ACCOUNT_FIELDS);
    this.connectErrors = problems ?? noErrors();
    if (problems) return;
    this.connecting = true;
    const result = await this.shell.api.connectAccount(input);
    this.connecting = false;
    if (!result.ok) {
      this.connectErrors = formErrors(result.error, ACCOUNT_FIELDS);
      return;
    }
    this.connection.token = '';
    this.shell.notices.show(
      'success',
      `Connected to ${result.value.apiBase ?? input.apiBase}; the token is kept encrypted`,
    );
    await this.load();
  }

  /** Asks the core how the connected platform speaks, and keeps its findings in words. */
  async testConnection(): Promise<void> {
    this.checkingConnection = true;
    const report = await this.shell.attempt(
      this.shell.api.checkConnection({}),
      'Could not test the connection',
    );
    this.checkingConnection = false;
    this.connectionCheck = report ? describeConnection(report) : null;
  }

  /** Forgets the account's token and opens the demo workspace again. */
  async useDemo(): Promise<void> {
    const account = await this.shell.attempt(
      this.shell.api.useDemo({}),
      'Could not switch to the demo workspace',
    );
    if (!account) return;
    this.shell.notices.show(
      'success',
      account.mode === 'demo' ? 'You are in the demo workspace' : 'The account was disconnected',
    );
    await this.load();
  }

  /** Shows new settings at once, then the core's answer, or the old values again on refusal. */
  private async patch(values: Partial<WorkspaceSettings>): Promise<CallResult<WorkspaceSettings>> {
    const before = this.shell.settings;
    if (before) this.shell.settings = { ...before, ...values };
    const result = await this.shell.api.saveSettings(values);
    const current = this.shell.settings;
    if (current && result.ok) this.shell.settings = { ...result.value, account: current.account };
    else if (current && before) {
      const keys = Object.keys(values) as (keyof WorkspaceSettings)[];
      this.shell.settings = {
        ...current,
        ...Object.fromEntries(keys.map((key) => [key, before[key]])),
      };
    }
    return result;
  }
}
