// Workspace settings (Node, main process): the Settings screen's values, and the readers the other
// services use for them (time zone, default bot, default currency, the duplicate window).
import { z } from 'zod';
import type { OperationInput } from '../../../shared/contract';
import type { WorkspaceSettings } from '../../../shared/domain';
import { THEMES } from '../../../shared/domain';
import { isCurrency } from '../../../shared/money';
import { isTimeZone, systemTimeZone } from '../../../shared/time';
import type { WorkspaceStore } from '../../store';
import type { CoreEvents } from '../events';
import { validate } from '../input';

const graceMinutes = z
  .number()
  .int()
  .min(0)
  .max(24 * 60);
const defaultBot = z.string().min(1).nullable();
const currencyCode = z.string().refine(isCurrency);
const timeZone = z.string().refine(isTimeZone);
const theme = z.enum(THEMES);
const duplicateWindowDays = z.number().int().min(0).max(90);

export class SettingsService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly events: CoreEvents,
  ) {}

  getSettings(): WorkspaceSettings {
    const settings = this.store.settings;
    return {
      timezone: this.zone(),
      graceMinutes: this.graceMinutes(),
      theme: settings.get('theme', theme, 'system'),
      defaultCurrency: this.defaultCurrency(),
      defaultBotId: this.defaultBotId(),
      duplicateWindowDays: this.windowDays(),
      askBeforePublishingProducts: settings.get(
        'ask_before_publishing_products',
        z.boolean(),
        true,
      ),
    };
  }

  saveSettings(input: OperationInput<'saveSettings'>): WorkspaceSettings {
    const request = validate('saveSettings', input);
    const keys = {
      timezone: 'timezone',
      graceMinutes: 'grace_minutes',
      theme: 'theme',
      defaultCurrency: 'default_currency',
      defaultBotId: 'default_bot_id',
      duplicateWindowDays: 'duplicate_window_days',
      askBeforePublishingProducts: 'ask_before_publishing_products',
    } as const;
    this.store.transaction(() => {
      for (const [field, key] of Object.entries(keys) as [keyof typeof keys, string][]) {
        if (request[field] !== undefined) this.store.settings.set(key, request[field]);
      }
    });
    this.events.emit({ type: 'changed', what: 'settings' });
    return this.getSettings();
  }

  /** The workspace's time zone: where wall times are read and slots fall. */
  zone(): string {
    return this.store.settings.get('timezone', timeZone, systemTimeZone());
  }

  defaultBotId(): string | null {
    return this.store.settings.get('default_bot_id', defaultBot, null);
  }

  /**
   * The currency new products get: the user's choice, else the one the catalog already holds
   * (made here, imported, or synced from the account), else USD. A shop priced in euros must not
   * get dollar products because nobody opened Settings; a published price cannot be corrected.
   */
  defaultCurrency(): string {
    const chosen = this.store.settings.get('default_currency', currencyCode.nullable(), null);
    return chosen ?? this.store.products.mostUsedCurrency() ?? 'USD';
  }

  /** How late a post may still go out, in minutes after its time. */
  graceMinutes(): number {
    return this.store.settings.get('grace_minutes', graceMinutes, 30);
  }

  /** Days either side of a post within which the same text of its bot counts as a duplicate. */
  windowDays(): number {
    return this.store.settings.get('duplicate_window_days', duplicateWindowDays, 3);
  }
}
