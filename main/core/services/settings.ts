// Workspace settings (Node, main process): the Settings screen's values, and the readers the other
// services use for them (time zone, default bot, default currency, the duplicate window).
import { workspaceSettings } from '../../../shared/contract';
import type { CheckedInput } from '../../../shared/contract';
import type { WorkspaceSettings } from '../../../shared/domain';
import { systemTimeZone } from '../../../shared/time';
import type { ProductsStore } from '../../store/products';
import type { SettingsStore } from '../../store/settings';
import type { Transactional } from '../../store/transaction';
import type { CoreEvents } from '../events';

/** Each stored value is read through the contract's own field, so both bound it alike. */
const field = workspaceSettings.shape;

/** What settings reads and writes of the store; products, for the currency most of them use. */
export interface SettingsData extends Transactional {
  settings: SettingsStore;
  products: Pick<ProductsStore, 'mostUsedCurrency'>;
}

export class SettingsService {
  constructor(
    private readonly store: SettingsData,
    private readonly events: CoreEvents,
  ) {}

  getSettings(): WorkspaceSettings {
    const settings = this.store.settings;
    return {
      timezone: this.zone(),
      graceMinutes: this.graceMinutes(),
      theme: settings.get('theme', field.theme, 'system'),
      defaultCurrency: this.defaultCurrency(),
      defaultBotId: this.defaultBotId(),
      duplicateWindowDays: this.windowDays(),
      askBeforePublishingProducts: settings.get(
        'ask_before_publishing_products',
        field.askBeforePublishingProducts,
        true,
      ),
    };
  }

  saveSettings(request: CheckedInput<'saveSettings'>): WorkspaceSettings {
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
    return this.store.settings.get('timezone', field.timezone, systemTimeZone());
  }

  defaultBotId(): string | null {
    return this.store.settings.get('default_bot_id', field.defaultBotId, null);
  }

  /**
   * The currency new products get: the user's choice, else the one the catalog already holds
   * (made here, imported, or synced from the account), else USD. A shop priced in euros must not
   * get dollar products because nobody opened Settings; a published price cannot be corrected.
   */
  defaultCurrency(): string {
    const chosen = this.store.settings.get(
      'default_currency',
      field.defaultCurrency.nullable(),
      null,
    );
    return chosen ?? this.store.products.mostUsedCurrency() ?? 'USD';
  }

  /** How late a post may still go out, in minutes after its time. */
  graceMinutes(): number {
    return this.store.settings.get('grace_minutes', field.graceMinutes, 30);
  }

  /** Days either side of a post within which the same text of its bot counts as a duplicate. */
  windowDays(): number {
    return this.store.settings.get('duplicate_window_days', field.duplicateWindowDays, 3);
  }
}
