// The durable outbox (Node, main process): every write Pressroom makes to the platform, with its
// state, attempts and idempotency key. Each transition also moves the post or product it is about,
// in the same transaction, so the two never disagree.
import { randomUUID } from 'node:crypto';
import { OUTBOX_STATES, PRIORITY } from '../../shared/domain';
import type {
  OutboxItem,
  OutboxKind,
  OutboxState,
  PostStatus,
  Priority,
  ProductStatus,
} from '../../shared/domain';
import { countBy, keptCounts } from './count-by';
import type { WorkspaceDb } from './db';
import { LeaseLost } from './lease';
import type { LeaseStore, LeaseToken } from './lease';
import { statement } from './statements';

interface OutboxRow {
  id: number;
  kind: OutboxKind;
  post_id: number | null;
  product_id: number | null;
  payload: string;
  state: OutboxState;
  priority: Priority;
  due_at: number;
  ready_at: number;
  attempts: number;
  idempotency_key: string;
  remote_id: string | null;
  last_error: string | null;
  field_errors: string;
  outcome_unknown: number;
  first_attempt_at: number | null;
  group_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface NewOutboxItem {
  kind: OutboxKind;
  postId?: number | null;
  productId?: number | null;
  payload?: Record<string, unknown>;
  priority: Priority;
  dueAt: number;
  groupId?: string | null;
}

/** The state its post or product takes when an item reaches each outbox state. */
const SUBJECT_STATUS: Record<OutboxState, { post: PostStatus; product: ProductStatus }> = {
  queued: { post: 'scheduled', product: 'queued' },
  sending: { post: 'sending', product: 'sending' },
  retrying: { post: 'sending', product: 'sending' },
  done: { post: 'published', product: 'published' },
  failed: { post: 'failed', product: 'failed' },
  cancelled: { post: 'draft', product: 'draft' },
};

const OPEN_STATES = "('queued', 'sending', 'retrying')";
/** The states an item ends in; with OPEN_STATES and 'failed', every state. */
const FINISHED_STATES = "('done', 'cancelled')";

/**
 * When an item may go, on this computer's clock, given the platform's lead over it (the one
 * parameter): a due time someone chose is the platform's (a post at 09:00 goes when the platform
 * says 09:00), while a backoff and "now" (an item due when it was queued) are this computer's.
 */
const GOES_AT =
  'CASE WHEN ready_at > due_at OR due_at <= created_at THEN ready_at ELSE due_at - ? END';

function toItem(row: OutboxRow): OutboxItem {
  return {
    id: row.id,
    kind: row.kind,
    postId: row.post_id,
    productId: row.product_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    state: row.state,
    priority: row.priority,
    dueAt: row.due_at,
    readyAt: row.ready_at,
    attempts: row.attempts,
    idempotencyKey: row.idempotency_key,
    remoteId: row.remote_id,
    lastError: row.last_error,
    fieldErrors: JSON.parse(row.field_errors) as OutboxItem['fieldErrors'],
    outcomeUnknown: row.outcome_unknown === 1,
    firstAttemptAt: row.first_attempt_at,
    groupId: row.group_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What a transition also records on its post or product. */
interface SubjectChange {
  remoteId?: string | null;
  publishedAt?: number | null;
  error?: string;
  /** Overrides the status the outbox state implies (a missed post). */
  postStatus?: PostStatus | undefined;
}

/** A post the platform has, whose id this workspace does not know yet (postsSentWithoutId). */
export interface PostSentWithoutId {
  itemId: number;
  postId: number;
  /** The item's idempotency key, sent as the post's client reference. */
  reference: string;
  /** When the item was first sent, on this computer's clock. */
  firstAttemptAt: number;
  botId: string | null;
  text: string;
}

export class OutboxStore {
  /** The platform's clock minus ours, as last measured; 0 until told (`judgeDueTimesBy`). */
  private platformLeadMs: () => number = () => 0;

  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
    private readonly lease: LeaseStore,
  ) {}

  /** Due times are judged on the platform's clock from now on: `leadMs` is its lead over ours. */
  judgeDueTimesBy(leadMs: () => number): void {
    this.platformLeadMs = leadMs;
  }

  /** The platform's time now, as far as it is known. */
  platformNow(): number {
    return this.now() + this.platformLeadMs();
  }

  enqueue(item: NewOutboxItem): OutboxItem {
    const now = this.now();
    const id = statement(
      this.db,
      `INSERT INTO outbox (kind, post_id, product_id, payload, state, priority, due_at, ready_at, idempotency_key,
           group_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      item.kind,
      item.postId ?? null,
      item.productId ?? null,
      JSON.stringify(item.payload ?? {}),
      item.priority,
      item.dueAt,
      item.dueAt,
      `pr-${randomUUID()}`,
      item.groupId ?? null,
      now,
      now,
    ).lastInsertRowid;
    const created = this.require(Number(id));
    this.moveSubject(created, 'queued');
    return created;
  }

  get(id: number): OutboxItem | undefined {
    const row = statement(this.db, 'SELECT * FROM outbox WHERE id = ?').get(id) as
      OutboxRow | undefined;
    return row && toItem(row);
  }

  require(id: number): OutboxItem {
    const item = this.get(id);
    if (!item) throw new Error(`No outbox item ${id}`);
    return item;
  }

  list(state?: OutboxState): OutboxItem[] {
    const rows = (
      state
        ? statement(this.db, 'SELECT * FROM outbox WHERE state = ? ORDER BY ready_at, id').all(
            state,
          )
        : statement(this.db, 'SELECT * FROM outbox ORDER BY id').all()
    ) as OutboxRow[];
    return rows.map(toItem);
  }

  /**
   * Items as the Queue lists them: the failed by their time (they need the user), then those on
   * their way by their next attempt (soonest first), then the finished, newest first (the last
   * made first among those finished at the same moment); `limit`
   * keeps the newest finished out before any open one. Each part is read in its order from an
   * index (migration 13) and stops at `limit`, so a long outbox (every queued product, years of
   * finished items) is never read and sorted whole.
   */
  rows(states: readonly OutboxState[] | undefined, limit: number): OutboxItem[] {
    // One statement for any set of states: the list goes in as one JSON parameter.
    const chosen = '(@states IS NULL OR state IN (SELECT value FROM json_each(@states)))';
    // Named, as SQLite's planner would rather search outbox_ready by state and sort every match.
    const part = (index: string, where: string, order: string) =>
      `SELECT * FROM (SELECT * FROM outbox INDEXED BY ${index} WHERE ${where} AND ${chosen}
         ORDER BY ${order} LIMIT @limit)`;
    const rows = statement(
      this.db,
      `SELECT * FROM (${part('outbox_ready', "state = 'failed'", 'due_at, id')}
         UNION ALL ${part('outbox_open', `state IN ${OPEN_STATES}`, 'ready_at, id')}
         UNION ALL ${part('outbox_finished', `state IN ${FINISHED_STATES}`, 'updated_at DESC, id DESC')})
       ORDER BY CASE WHEN state = 'failed' THEN 0 WHEN state IN ${OPEN_STATES} THEN 1 ELSE 2 END,
         CASE WHEN state IN ${OPEN_STATES} THEN ready_at WHEN state = 'failed' THEN due_at
           ELSE -updated_at END,
         CASE WHEN state IN ${FINISHED_STATES} THEN -id ELSE id END
       LIMIT @limit`,
    ).all({ states: states?.length ? JSON.stringify(states) : null, limit }) as OutboxRow[];
    return rows.map(toItem);
  }

  /** The newest item of a post, whatever its state. */
  latestForPost(postId: number): OutboxItem | undefined {
    const row = statement(
      this.db,
      'SELECT * FROM outbox WHERE post_id = ? ORDER BY id DESC LIMIT 1',
    ).get(postId) as OutboxRow | undefined;
    return row && toItem(row);
  }

  /** The item still open for a post or product, if any. */
  openFor(subject: { postId: number } | { productId: number }): OutboxItem | undefined {
    const [column, id] =
      'postId' in subject ? ['post_id', subject.postId] : ['product_id', subject.productId];
    const row = statement(
      this.db,
      `SELECT * FROM outbox WHERE ${column} = ? AND state IN ${OPEN_STATES} ORDER BY id DESC LIMIT 1`,
    ).get(id) as OutboxRow | undefined;
    return row && toItem(row);
  }

  /**
   * Items that may be attempted by `now` (this computer's clock), most urgent first, each with
   * `readyAt` the instant on this computer's clock it may go.
   */
  ready(now: number, limit: number): OutboxItem[] {
    const lead = this.platformLeadMs();
    const rows = statement(
      this.db,
      `SELECT *, ${GOES_AT} AS goes_at FROM outbox
         WHERE state IN ('queued', 'retrying') AND ${GOES_AT} <= ?
         ORDER BY priority, ready_at, id LIMIT ?`,
    ).all(lead, lead, now, limit) as (OutboxRow & { goes_at: number })[];
    return rows.map((row) => ({ ...toItem(row), readyAt: row.goes_at }));
  }

  /**
   * Routine post items still waiting whose due time is before `before` (this computer's clock,
   * due times judged on the platform's): candidates for "missed".
   * Items backing off count too (a 429 before the laptop slept); an item whose last attempt may
   * have gone out does not, as it may have been published on time: it is looked up first.
   */
  overduePosts(before: number, userPriority: number): OutboxItem[] {
    const rows = statement(
      this.db,
      `SELECT * FROM outbox WHERE state IN ('queued', 'retrying') AND kind = 'create_post'
         AND outcome_unknown = 0 AND priority != ? AND due_at < ? ORDER BY due_at`,
    ).all(userPriority, before + this.platformLeadMs()) as OutboxRow[];
    return rows.map(toItem);
  }

  /** When the next waiting item becomes ready, on this computer's clock; null when nothing waits. */
  nextReadyAt(): number | null {
    const row = statement(
      this.db,
      `SELECT MIN(${GOES_AT}) AS at FROM outbox WHERE state IN ('queued', 'retrying')`,
    ).get(this.platformLeadMs()) as { at: number | null };
    return row.at;
  }

  /**
   * Claims an item for sending, if it is still waiting and due: it may have been rescheduled or
   * cancelled while it waited for rate-limit budget. The commit is durable (synchronous = FULL)
   * before the request leaves, so a crash afterwards finds it `sending` and reconciles it. Under
   * `fence` it throws LeaseLost unless that lease still holds, and records the lease's epoch: only
   * a settle under that same lease moves the item on.
   */
  claim(id: number, fence?: LeaseToken): OutboxItem | undefined {
    const now = this.now();
    return this.db
      .transaction(() => {
        if (fence && !this.lease.holds(fence)) throw new LeaseLost();
        const changed = statement(
          this.db,
          `UPDATE outbox SET state = 'sending', attempts = attempts + 1, updated_at = ?,
             first_attempt_at = COALESCE(first_attempt_at, ?), lease_epoch = ?
           WHERE id = ? AND state IN ('queued', 'retrying') AND ${GOES_AT} <= ?`,
        ).run(now, now, fence?.epoch ?? null, id, this.platformLeadMs(), now).changes;
        if (changed === 0) return undefined;
        const item = this.require(id);
        this.moveSubject(item, 'sending');
        return item;
      })
      .immediate();
  }

  /**
   * Settles a claimed item the platform accepted; throws LeaseLost unless its claim's lease still
   * holds. An id the platform gave that another post or product here already has is not linked
   * (the UNIQUE column would refuse it): the item is done all the same, and its note says so.
   */
  markDone(id: number, remoteId: string | null, publishedAt: number | null = null): void {
    const { columns, subject } = this.doneChange(id, remoteId, publishedAt);
    this.settle(id, 'done', columns, subject);
  }

  /**
   * The user looked on the platform and the item is there: one waiting with an unknown outcome is
   * done, linked as `markDone` links. False when the item is not such an item.
   */
  markFoundByUser(id: number, remoteId: string | null, publishedAt: number): boolean {
    if (!this.get(id)?.outcomeUnknown) return false;
    const { columns, subject } = this.doneChange(id, remoteId, publishedAt);
    return this.transition(id, 'done', columns, subject, ['failed', 'retrying']);
  }

  /**
   * A waiting item whose post another computer published (a team's server says so): done, never
   * sent from here. One being sent here now is left to its own settle.
   */
  markDoneElsewhere(id: number, remoteId: string, publishedAt: number): boolean {
    const { columns, subject } = this.doneChange(id, remoteId, publishedAt);
    return this.transition(id, 'done', columns, subject, ['queued', 'retrying', 'failed']);
  }

  private doneChange(id: number, remoteId: string | null, publishedAt: number | null) {
    const clash = remoteId === null ? null : this.heldElsewhere(id, remoteId);
    const linked = clash === null ? remoteId : null;
    return {
      columns: { remote_id: linked, last_error: clash, outcome_unknown: 0 },
      subject: { remoteId: linked, publishedAt } satisfies SubjectChange,
    };
  }

  /**
   * The last resort after the platform accepted an item and recording it failed for a reason other
   * than a busy database (a lost lease among them): the item alone is marked done, with why, so it
   * is never sent again; unless a new lease holder has claimed it since, whose lookup will find it.
   */
  markSentUnrecorded(
    id: number,
    remoteId: string | null,
    error: unknown,
    at: number,
    claimedUnder?: LeaseToken,
  ): void {
    const why = error instanceof Error ? error.message : String(error);
    statement(
      this.db,
      `UPDATE outbox SET state = 'done', remote_id = ?, outcome_unknown = 0, updated_at = ?,
         last_error = ? WHERE id = ? AND (state != 'sending' OR lease_epoch IS ?)`,
    ).run(
      remoteId,
      at,
      `Published, but recording it here failed: ${why}`,
      id,
      claimedUnder?.epoch ?? null,
    );
  }

  /** Why `remoteId` cannot be linked to item `id`'s subject: another row has it; else null. */
  private heldElsewhere(id: number, remoteId: string): string | null {
    const item = this.require(id);
    const [table, subjectId] =
      item.postId !== null ? ['posts', item.postId] : ['products', item.productId];
    if (subjectId === null) return null;
    const other = statement(
      this.db,
      `SELECT id FROM ${table} WHERE remote_id = ? AND id != ? AND (? = 'products' OR origin = 'local')`,
    ).get(remoteId, subjectId, table) as { id: number } | undefined;
    if (!other) return null;
    const what = table === 'posts' ? 'post' : 'product';
    return `Published. The platform gave it the id ${remoteId}, which ${what} ${other.id} here already has, so the two are not linked; check both on the platform.`;
  }

  /** Settles a claimed item to wait and try again; fenced as `markDone`. */
  markRetrying(id: number, readyAt: number, error: string, outcomeUnknown: boolean): void {
    this.settle(id, 'retrying', {
      ready_at: readyAt,
      last_error: error,
      outcome_unknown: Number(outcomeUnknown),
    });
  }

  /** Settles a claimed item as failed; fenced as `markDone`. */
  markFailed(
    id: number,
    error: string,
    fieldErrors: OutboxItem['fieldErrors'] = [],
    /** The last attempt may have happened; unless told, an unknown outcome stays unknown. */
    outcomeUnknown?: boolean,
  ): void {
    this.settle(
      id,
      'failed',
      {
        last_error: error,
        field_errors: JSON.stringify(fieldErrors),
        ...(outcomeUnknown === undefined ? {} : { outcome_unknown: Number(outcomeUnknown) }),
      },
      { error },
    );
  }

  /** A waiting post found long after its time: it waits for the user. False if no longer waiting. */
  markMissed(id: number, error: string): boolean {
    return this.transition(
      id,
      'failed',
      { last_error: error, field_errors: '[]' },
      { error, postStatus: 'missed' },
      ['queued', 'retrying'],
    );
  }

  /**
   * Items left `sending` under another lease than `fence` (a process that stopped mid-request, or
   * one whose lease was taken over): their outcome is unknown, so they wait to be looked up on the
   * platform before anything is sent again. Never those of the live holder: the caller must hold
   * the lease (else LeaseLost), and its own claims carry its epoch. Returns how many.
   */
  recoverInterrupted(fence: LeaseToken): number {
    const now = this.now();
    return this.db
      .transaction(() => {
        if (!this.lease.holds(fence)) throw new LeaseLost();
        return statement(
          this.db,
          `UPDATE outbox SET state = 'retrying', outcome_unknown = 1, ready_at = ?, updated_at = ?,
               last_error = 'Interrupted while sending; checking the platform before sending again'
             WHERE state = 'sending' AND lease_epoch IS NOT ?`,
        ).run(now, now, fence.epoch).changes;
      })
      .immediate();
  }

  /** Gives up on an item that has not been sent; the user's post or product goes back to draft. */
  cancel(id: number): boolean {
    return this.transition(id, 'cancelled', {}, {}, ['queued', 'retrying', 'failed']);
  }

  /** Tries a failed or cancelled item again, at once and ahead of routine work. */
  retry(id: number, priority: Priority, readyAt = this.now()): boolean {
    return this.transition(
      id,
      'queued',
      { ready_at: readyAt, priority, last_error: null, field_errors: '[]' },
      {},
      ['failed', 'cancelled', 'retrying'],
    );
  }

  /**
   * Sends an item whose outcome was unknown again without looking it up: the user has looked on
   * the platform and it is not there. Only a failed or waiting item with an unknown outcome.
   */
  resendUnsent(id: number, priority: Priority): boolean {
    if (!this.get(id)?.outcomeUnknown) return false;
    return this.transition(
      id,
      'queued',
      { ready_at: this.now(), priority, outcome_unknown: 0, last_error: null, field_errors: '[]' },
      {},
      ['failed', 'retrying'],
    );
  }

  /**
   * Opens a failed or cancelled item again, with its key, for a post queued anew: when its last
   * attempt's outcome is unknown, a fresh item would send without looking first.
   */
  reopen(id: number, item: Pick<NewOutboxItem, 'priority' | 'dueAt' | 'payload'>): void {
    this.transition(
      id,
      'queued',
      {
        priority: item.priority,
        due_at: item.dueAt,
        ready_at: item.dueAt,
        payload: JSON.stringify(item.payload ?? {}),
        last_error: null,
        field_errors: '[]',
      },
      {},
      ['failed', 'cancelled'],
    );
  }

  /** The post's last item when it ended failed or cancelled with its outcome unknown. */
  unsettledForPost(postId: number): OutboxItem | undefined {
    const latest = this.latestForPost(postId);
    const ended = latest?.state === 'failed' || latest?.state === 'cancelled';
    return ended && latest.outcomeUnknown ? latest : undefined;
  }

  /** Moves a waiting item to another time (a rescheduled post). */
  reschedule(id: number, dueAt: number): void {
    statement(
      this.db,
      `UPDATE outbox SET due_at = ?, ready_at = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'retrying')`,
    ).run(dueAt, dueAt, this.now(), id);
  }

  /**
   * Sends a post waiting for its time now, at the user's priority; false when it no longer waits
   * (it is being sent, or was cancelled or rescheduled to a hand-off meanwhile).
   */
  publishNow(id: number, now: number): boolean {
    return (
      statement(
        this.db,
        `UPDATE outbox SET priority = ?, due_at = ?, ready_at = ?, updated_at = ?
         WHERE id = ? AND state = 'queued' AND priority = ?`,
      ).run(PRIORITY.user, now, now, now, id, PRIORITY.due).changes > 0
    );
  }

  /**
   * Whether a platform id is already another item's, or another local post's, or a platform post a
   * sync brought here before `knownBefore` (so before the attempt): a lookup must never take it for
   * what item `itemId` made.
   */
  remoteIdOwned(remoteId: string, itemId: number, knownBefore = 0): boolean {
    return (
      statement(
        this.db,
        `SELECT 1 FROM outbox WHERE remote_id = ? AND id != ?
         UNION ALL SELECT 1 FROM posts p WHERE p.remote_id = ? AND p.origin = 'local'
           AND p.id IS NOT (SELECT post_id FROM outbox WHERE id = ?)
         UNION ALL SELECT 1 FROM posts p WHERE p.remote_id = ? AND p.origin = 'remote'
           AND p.created_at < ? LIMIT 1`,
      ).get(remoteId, itemId, remoteId, itemId, remoteId, knownBefore) !== undefined
    );
  }

  /**
   * Posts the platform took (it answered 2xx, or the user said it is there) without their id
   * known yet: a sync links each to the platform's post it finds for it (sync/pull.ts).
   */
  postsSentWithoutId(): PostSentWithoutId[] {
    return statement(
      this.db,
      `SELECT o.id AS itemId, o.post_id AS postId, o.idempotency_key AS reference,
         COALESCE(o.first_attempt_at, o.created_at) AS firstAttemptAt, p.bot_id AS botId, p.text AS text
       FROM outbox o JOIN posts p ON p.id = o.post_id
       WHERE o.kind = 'create_post' AND o.state = 'done' AND o.remote_id IS NULL
         AND p.origin = 'local' AND p.remote_id IS NULL`,
    ).all() as PostSentWithoutId[];
  }

  /** Items by state, of the whole outbox or of one group (a broadcast). */
  counts(groupId?: string): Record<OutboxState, number> {
    if (groupId === undefined) return keptCounts(this.db, 'outbox', OUTBOX_STATES);
    return countBy(this.db, 'outbox', 'state', OUTBOX_STATES, {
      sql: 'group_id = ?',
      params: [groupId],
    });
  }

  /** Settles the claimed item `id`: LeaseLost unless it is still `sending` under the lease held now. */
  private settle(
    id: number,
    state: OutboxState,
    columns: Record<string, string | number | null>,
    subject: SubjectChange = {},
  ): void {
    if (!this.transition(id, state, columns, subject, ['sending'])) throw new LeaseLost();
  }

  /**
   * Moves item `id` to `state` if it is in one of `from`, a `sending` one only under the lease
   * that claimed it (checked in the same transaction); false when it was not.
   */
  private transition(
    id: number,
    state: OutboxState,
    columns: Record<string, string | number | null>,
    subject: SubjectChange,
    from: readonly OutboxState[],
  ): boolean {
    return this.db
      .transaction(() => {
        const names = Object.keys(columns);
        const sets = names.map((name) => `${name} = ?`).join(', ');
        const changed = statement(
          this.db,
          `UPDATE outbox SET state = ?, ${sets}${sets ? ', ' : ''}updated_at = ?
           WHERE id = ? AND state IN (${from.map(() => '?').join(', ')})
             AND (state != 'sending' OR lease_epoch IS ?)`,
        ).run(
          state,
          ...names.map((name) => columns[name]),
          this.now(),
          id,
          ...from,
          this.lease.heldEpoch(),
        ).changes;
        if (changed > 0) this.moveSubject(this.require(id), state, subject);
        return changed > 0;
      })
      .immediate();
  }

  private moveSubject(item: OutboxItem, state: OutboxState, subject: SubjectChange = {}): void {
    const now = this.now();
    if (item.postId !== null) {
      // A sync that could not tell the post was ours kept it as a platform-only copy: ours now.
      if (subject.remoteId)
        statement(this.db, "DELETE FROM posts WHERE remote_id = ? AND origin = 'remote'").run(
          subject.remoteId,
        );
      const handedOff = state === 'done' && item.payload.handOff === true;
      const status = subject.postStatus ?? (handedOff ? 'handed_off' : SUBJECT_STATUS[state].post);
      statement(
        this.db,
        `UPDATE posts SET status = ?, remote_id = COALESCE(?, remote_id), published_at = COALESCE(?, published_at),
             error = ?, updated_at = ? WHERE id = ?`,
      ).run(
        status,
        subject.remoteId ?? null,
        handedOff ? null : (subject.publishedAt ?? null),
        subject.error ?? null,
        now,
        item.postId,
      );
    }
    if (item.productId !== null) {
      statement(
        this.db,
        'UPDATE products SET status = ?, remote_id = COALESCE(?, remote_id), error = ?, updated_at = ? WHERE id = ?',
      ).run(
        SUBJECT_STATUS[state].product,
        subject.remoteId ?? null,
        subject.error ?? null,
        now,
        item.productId,
      );
    }
  }
}
