import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { WorkspaceStore } from '../../main/store';
import { call } from '../../main/core/operations';

describe('settings', () => {
  it('round-trips JSON values and falls back on missing or damaged ones', () => {
    const store = WorkspaceStore.open();
    const minutes = z.number().int().min(0);
    expect(store.settings.get('grace_minutes', minutes, 30)).toBe(30);
    store.settings.set('grace_minutes', 45);
    expect(store.settings.get('grace_minutes', minutes, 30)).toBe(45);
    store.settings.set('grace_minutes', 'soon');
    expect(store.settings.get('grace_minutes', minutes, 30)).toBe(30);
    store.db.prepare("UPDATE settings SET value = '{broken' WHERE key = 'grace_minutes'").run();
    expect(store.settings.get('grace_minutes', minutes, 30)).toBe(30);
    store.close();
  });

  it('gives new posts the default bot', () => {
    const pressroom = testWorkspace();
    pressroom.store.settings.set('default_bot_id', 'bot_2');
    expect(call(pressroom, 'addPost', { text: 'x', mode: 'draft' }).botId).toBe('bot_2');
    expect(call(pressroom, 'addPost', { text: 'y', mode: 'draft', botId: 'bot_1' }).botId).toBe(
      'bot_1',
    );
  });
});
