// The demo workspace's own work (Node, core). The demo platform's posts and products are the
// platform's, so they are read-only here; a demo of nothing but those refuses the first drag a
// new user tries. So a new demo workspace also gets work of its own, once: a posting schedule per
// bot (the calendar's free-slot bands, Add to queue and Share next need one), drafts, posts
// scheduled in the coming days, two with a picture (they publish to the demo platform when due,
// as a user's would), and draft products in the catalog.
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { DEMO_PICTURES } from './demo-pictures';
import type { Workspace } from './workspace';

const SEEDED = 'demo_workspace_seeded';

/** Weekly schedules for the demo's bots, in the order the platform lists them. */
const SCHEDULES = [
  'mon-fri 09:00,12:30,17:00; sat 10:00',
  'mon-sat 08:00',
  'tue,thu 18:00; sun 11:00',
];

const DRAFTS = [
  'Idea: a behind-the-scenes video of the morning bake',
  'Idea: ask followers to name our new seeded loaf',
  'Idea: weekend brunch box, with pictures of each item',
];

/** Days from today, the wall time, the text and its picture, for the first bot. */
const SCHEDULED: readonly [
  days: number,
  time: string,
  text: string,
  picture: keyof typeof DEMO_PICTURES | null,
][] = [
  [1, '10:00', 'Fresh rye is out of the oven: come early, it goes fast!', 'rye.png'],
  [2, '12:30', 'Lunch special: soup of the day and a slice of sourdough for 6.50', null],
  [4, '17:00', 'Tomorrow only: cinnamon buns, two for one before 10:00', 'cinnamon-buns.png'],
];

const PRODUCTS: readonly [sku: string, name: string, price: string][] = [
  ['DEMO-BRUNCH-BOX', 'Weekend brunch box (draft)', '24.00'],
  ['DEMO-GIFT-CARD', 'Gift card, 25 (draft)', '25.00'],
];

/**
 * Adds the demo workspace's own work unless it was added before (a user who deleted it keeps it
 * deleted). Returns whether it added anything.
 */
export function seedDemoWorkspace(pressroom: Workspace): boolean {
  const { settings } = pressroom.store;
  if (settings.get(SEEDED, z.boolean(), false)) return false;
  const bots = pressroom.bots.listBots();
  const first = bots[0];
  if (!first) return false;
  const zone = pressroom.settings.getSettings().timezone;
  const today = Temporal.Now.plainDateISO(zone);
  bots.forEach((bot, index) => {
    const schedule = SCHEDULES[index];
    if (schedule) pressroom.planning.setSchedule({ botId: bot.id, schedule });
  });
  // The seed's own constants, written as checked input (a door's call here would be a circle).
  const post = { botId: first.id, mediaUrls: [], mode: 'draft' as const, allowDuplicate: false };
  for (const text of DRAFTS) pressroom.posts.addPost({ ...post, text });
  // Pictures only where they can be published (the demo platform's web space is the host).
  const withPictures = pressroom.media.host() !== null;
  for (const [days, time, text, picture] of SCHEDULED)
    pressroom.posts.addPost({
      ...post,
      mode: 'schedule',
      text,
      mediaUrls:
        withPictures && picture
          ? [pressroom.media.add(picture, Buffer.from(DEMO_PICTURES[picture], 'base64')).url]
          : [],
      at: `${today.add({ days }).toString()}T${time}`,
      zone,
      allowDuplicate: true,
    });
  const currency = pressroom.catalog.listProducts({
    limit: 1,
    offset: 0,
    sort: 'sku',
    descending: false,
  }).rows[0]?.currency;
  for (const [sku, name, price] of PRODUCTS)
    pressroom.catalog.saveProduct({
      sku,
      name,
      price,
      description: null,
      stock: null,
      imageUrl: null,
      ...(currency ? { currency } : {}),
    });
  settings.set(SEEDED, true);
  return true;
}
