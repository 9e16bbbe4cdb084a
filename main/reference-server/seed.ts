// The demo workspace's data (Node, main process, reference server): a small bakery with three
// bots, a few hundred subscribers, a month of posts, a catalog, orders and AI usage history.
// Deterministic for a given random source, and laid out around the current time.
import type { OrderStatus } from '../platform/wire';
import { between, pick } from './random';
import type { ReferenceServerStore } from './store';

const DAY_MS = 86_400_000;

const FIRST_NAMES = [
  'Ana',
  'Ben',
  'Chloé',
  'Dmitri',
  'Emma',
  'Farid',
  'Greta',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemal',
  'Lea',
  'Mateo',
  'Nora',
  'Olu',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Uma',
  'Viktor',
  'Wen',
  'Yara',
  'Zoe',
];
const LAST_NAMES = [
  'Almeida',
  'Berg',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Haddad',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'López',
  'Müller',
  'Novak',
  'Okafor',
  'Petit',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Weber',
];
const LANGUAGES = ['en', 'en', 'en', 'de', 'fr', 'es', 'pt-BR', null];
const TAGS = ['vip', 'newsletter', 'wholesale', 'beta', 'gluten-free', 'local', 'catering'];

const POST_OPENERS = [
  'Fresh from the oven:',
  'Weekend special:',
  'New this week:',
  'Baker’s tip:',
  'Reminder:',
  'Thank you!',
];
const POST_BODIES = [
  'our sourdough is back, with a crust you can hear.',
  'cinnamon knots, two for the price of one until noon.',
  'pre-order your holiday stollen now and pick it up any day next week.',
  'let your dough rest longer than you think; flavour needs time.',
  'we open at 7:00 tomorrow, coffee is on us for the first ten guests.',
  'you voted rye-caraway the bread of the month. It is on the shelves today.',
  'gluten-free banana bread, baked in its own oven from now on.',
  'our apprentices made the croissants today. Come taste the result!',
];
const HASHTAGS = ['#bakery', '#sourdough', '#freshbread', '#weekend', '#shoplocal', '#pastry'];

const PRODUCTS: readonly [name: string, price: number][] = [
  ['Country sourdough loaf', 650],
  ['Rye-caraway bread', 590],
  ['Seeded spelt loaf', 620],
  ['Baguette', 260],
  ['Butter croissant', 210],
  ['Pain au chocolat', 240],
  ['Almond croissant', 320],
  ['Cinnamon knot', 290],
  ['Cardamom bun', 290],
  ['Apple turnover', 310],
  ['Lemon tart', 450],
  ['Chocolate babka', 1250],
  ['Banana bread (gluten-free)', 890],
  ['Focaccia with rosemary', 540],
  ['Olive ciabatta', 480],
  ['Brioche loaf', 720],
  ['Holiday stollen', 1890],
  ['Gingerbread box', 1450],
  ['Sourdough starter kit', 1200],
  ['Baking workshop voucher', 4900],
  ['Oat cookies (6)', 590],
  ['Macarons (12)', 1800],
  ['Cheesecake slice', 420],
  ['Carrot cake slice', 410],
  ['Bagel, sesame', 190],
  ['Bagel, everything', 190],
  ['Pretzel', 170],
  ['Danish, cherry', 300],
  ['Focaccia sandwich', 780],
  ['Quiche lorraine', 650],
  ['Filter coffee', 250],
  ['Cappuccino', 340],
  ['Hot chocolate', 360],
  ['Chai latte', 380],
  ['Fresh orange juice', 420],
  ['Granola jar', 950],
  ['Honey jar', 880],
  ['Jam jar, apricot', 690],
  ['Bread knife', 2900],
  ['Linen bread bag', 1400],
];
const COMMENTS = [
  'Looks amazing!',
  'Do you deliver on Sundays?',
  'Best croissants in town.',
  'Is there a vegan option?',
  'Saving this for the weekend 😍',
  'What time do you close today?',
];
const INCOMING = [
  'Hi! Can I pre-order two loaves for Saturday?',
  'Do you have gluten-free bread today?',
  'Thanks, the cake was perfect!',
  'Is the workshop still open for sign-ups?',
  'Where can I park near the shop?',
];
const ORDER_STATUSES: readonly OrderStatus[] = [
  'paid',
  'paid',
  'paid',
  'shipped',
  'shipped',
  'pending',
  'cancelled',
  'refunded',
];

export function demoPostText(random: () => number): string {
  const tags = [pick(random, HASHTAGS), pick(random, HASHTAGS)];
  return `${pick(random, POST_OPENERS)} ${pick(random, POST_BODIES)} ${[...new Set(tags)].join(' ')}`;
}

export function demoComment(random: () => number): { authorName: string; text: string } {
  return {
    authorName: `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`,
    text: pick(random, COMMENTS),
  };
}

export function demoIncomingMessage(random: () => number): string {
  return pick(random, INCOMING);
}

/** What orders are made of: the account's catalog items, active subscribers and bots. */
function orderMaterials(store: ReferenceServerStore, accountId: number) {
  return {
    products: store.products.productsForOrders(accountId),
    subscribers: store.subscribers.subscriberRowIds(accountId),
    bots: store.bots.botRowIds(accountId),
  };
}

/**
 * An order of one to four catalog items, by one of the account's subscribers. The seed reads the
 * materials once for all its orders.
 */
export function createDemoOrder(
  store: ReferenceServerStore,
  accountId: number,
  random: () => number,
  createdAt: number,
  { products, subscribers, bots } = orderMaterials(store, accountId),
) {
  if (products.length === 0) return null;
  const chosen = new Map<number, (typeof products)[number]>();
  const lines = between(random, 1, 4);
  for (let line = 0; line < lines; line++) {
    const product = pick(random, products);
    chosen.set(product.id, product);
  }
  const currency = products[0]?.currency ?? 'EUR';
  return store.orders.createOrder(accountId, {
    botId: bots.length > 0 ? pick(random, bots) : null,
    subscriberId: subscribers.length > 0 ? pick(random, subscribers) : null,
    status: pick(random, ORDER_STATUSES),
    currency,
    createdAt,
    items: [...chosen.values()]
      .filter((product) => product.currency === currency)
      .map((product) => ({
        productId: product.id,
        sku: product.sku,
        name: product.name,
        quantity: between(random, 1, 3),
        unitPriceMinor: product.price_minor,
      })),
  });
}

export interface SeedSize {
  subscribers: number;
  posts: number;
  orders: number;
}

export const DEMO_SIZE: SeedSize = { subscribers: 300, posts: 60, orders: 80 };

/** Fills an empty account with the demo workspace. */
export function seedDemo(
  store: ReferenceServerStore,
  accountId: number,
  random: () => number,
  now: number,
  size = DEMO_SIZE,
): void {
  const seed: Seeding = { store, accountId, random, now };
  store.transaction(() => {
    const bots = seedBots(seed);
    seedSubscribers(seed, bots, size.subscribers);
    seedPosts(seed, bots, size.posts);
    seedProducts(seed);
    const materials = orderMaterials(store, accountId);
    for (let index = 0; index < size.orders; index++) {
      const createdAt = now - Math.floor(random() * 30 * DAY_MS);
      createDemoOrder(store, accountId, random, createdAt, materials);
    }
    for (const post of store.posts.publishedPostRowIds(accountId).slice(0, 20)) {
      const comment = demoComment(random);
      store.posts.createComment(accountId, { postId: post.id, botId: post.bot_id, ...comment });
    }
    seedAiUsage(seed);
  });
}

/** What every part of the demo seed works with. */
interface Seeding {
  store: ReferenceServerStore;
  accountId: number;
  random: () => number;
  now: number;
}

const DEMO_BOTS = [
  { name: 'Corner Bakery', description: 'News and specials', channel: 'telegram' },
  { name: 'Bakery Orders', description: 'Pre-orders and questions', channel: 'whatsapp' },
  { name: 'Bakery Stories', description: 'Behind the counter', channel: 'instagram' },
] as const;

/** The demo's three bots: their row ids. */
function seedBots({ store, accountId }: Seeding): number[] {
  return DEMO_BOTS.map((bot) => store.bots.createBot(accountId, { ...bot, status: 'active' })).map(
    (bot) => Number(bot.id.slice('bot_'.length)),
  );
}

function seedSubscribers(
  { store, accountId, random, now }: Seeding,
  bots: number[],
  count: number,
) {
  for (let index = 0; index < count; index++) {
    const first = pick(random, FIRST_NAMES);
    const last = pick(random, LAST_NAMES);
    const handleName = first
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z]/g, '');
    const id = store.subscribers.createSubscriber(accountId, {
      botId: pick(random, bots),
      name: `${first} ${last}`,
      handle: random() < 0.8 ? `@${handleName}${index}` : null,
      language: pick(random, LANGUAGES),
      status: random() < 0.05 ? 'unsubscribed' : 'active',
      createdAt: now - between(random, 1, 365) * DAY_MS,
    });
    for (let tag = between(random, 0, 3); tag > 0; tag--)
      store.subscribers.addTag(id, pick(random, TAGS));
  }
}

/** Posts spread over a month centred on today, at round local-looking times. */
function seedPosts({ store, accountId, random, now }: Seeding, bots: number[], count: number) {
  for (let index = 0; index < count; index++) {
    const day = Math.floor((index / count) * 30) - 15;
    const hour = Math.floor((now + day * DAY_MS) / 3_600_000) * 3_600_000;
    const at = hour + between(random, 0, 3) * 1_800_000;
    const post = {
      botId: pick(random, bots),
      text: demoPostText(random),
      mediaUrls: [],
      scheduledAt: at,
      clientReference: null,
    };
    store.posts.createPost(accountId, post, Math.min(at, now) - DAY_MS);
  }
}

function seedProducts({ store, accountId, random }: Seeding) {
  PRODUCTS.forEach(([name, priceMinor], index) => {
    const sku = `BK-${String(index + 1).padStart(3, '0')}`;
    store.products.createProduct(accountId, {
      sku,
      name,
      description: `${name}, made in our bakery.`,
      priceMinor,
      currency: 'EUR',
      stock: random() < 0.15 ? null : between(random, 0, 120),
      imageUrl: `https://picsum.photos/seed/${sku}/400/300`,
      clientReference: null,
    });
  });
}

/** Two weeks of AI calls, so the usage screen has something to show. */
function seedAiUsage({ store, accountId, random, now }: Seeding) {
  const providers = ['lark', 'lark', 'heron', 'owl'];
  for (let day = 13; day >= 1; day--) {
    for (let call = between(random, 0, 6); call > 0; call--) {
      const prompt = between(random, 20, 200);
      const completion = between(random, 30, 300);
      store.aiUsage.recordUsage({
        accountId,
        date: new Date(now - day * DAY_MS).toISOString().slice(0, 10),
        provider: pick(random, providers),
        promptTokens: prompt,
        completionTokens: completion,
        costMicroUsd: prompt + completion,
      });
    }
  }
}
