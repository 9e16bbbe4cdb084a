// An outbox item for tests: as the core answers a queued write, or as a queue event carries it.
import type { OutboxItem } from '../../shared/domain';

export const outboxItem = (
  id: number,
  kind: OutboxItem['kind'],
  extra: Partial<OutboxItem> = {},
): OutboxItem => ({
  id,
  kind,
  postId: null,
  productId: null,
  payload: {},
  state: 'queued',
  priority: 0,
  dueAt: 0,
  readyAt: 0,
  attempts: 0,
  idempotencyKey: `key-${id}`,
  remoteId: null,
  lastError: null,
  fieldErrors: [],
  outcomeUnknown: false,
  firstAttemptAt: null,
  groupId: null,
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});
