// Numbered schema migrations of Pressroom's workspace database (Node, main process), one file per
// version. A migration is never edited once released: a change of schema is a new file, added
// here at the end with the next version.
import type { Migration } from './migration';
import { migration001 } from './001-initial';
import { migration002 } from './002-webhook-subscriptions';
import { migration003 } from './003-posting-schedules';
import { migration004 } from './004-posts-by-text';
import { migration005 } from './005-products-remote-ids';
import { migration006 } from './006-imports-in-progress';
import { migration007 } from './007-money-minor-units';
import { migration008 } from './008-outbox-first-attempt';
import { migration009 } from './009-publisher-lease';
import { migration010 } from './010-media';
import { migration011 } from './011-cache-whole-reads';
import { migration012 } from './012-lease-fencing-epoch';
import { migration013 } from './013-status-counts';
import { migration014 } from './014-team-workspace';
import { migration015 } from './015-team-pending-transitions';
import { migration016 } from './016-import-rows-counted-per-statement';
import { migration017 } from './017-uuid-indexes-partial';

export type { Migration } from './migration';

export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
];
