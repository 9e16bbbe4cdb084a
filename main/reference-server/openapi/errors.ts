// The error codes of the OpenAPI document of the reference server (Node, main process): every code
// the server answers, with its status and what it means.
import { MAX_BODY_BYTES } from '../http';

/** Every error code the server answers, with its status and what it means. */
export const ERROR_CODES = {
  invalid_json: [400, 'The body is not valid JSON.'],
  invalid_query: [400, 'A query parameter is malformed; `details` names it.'],
  invalid_request: [
    400,
    'The `Idempotency-Key` is not 1–255 visible ASCII characters, or the body was cut off.',
  ],
  unauthorized: [401, 'No valid token: missing, malformed, unknown or revoked.'],
  forbidden: [403, 'The token is valid, but the account may not do this (it is suspended).'],
  not_found: [404, 'No item with this id in the account.'],
  duplicate_sku: [
    409,
    'The account has a product with this SKU already; `existing_id` names it. A client retrying a create treats this as done.',
  ],
  subscriber_unsubscribed: [409, 'The subscriber has unsubscribed.'],
  idempotency_in_progress: [
    409,
    'A request with this `Idempotency-Key` is still running; retry shortly.',
  ],
  payload_too_large: [413, `The body is over ${MAX_BODY_BYTES} bytes.`],
  unsupported_media_type: [415, 'A body was sent without a JSON `Content-Type`.'],
  validation_failed: [422, 'The body is JSON, but fields are wrong; `details` lists each.'],
  idempotency_key_reused: [422, 'This `Idempotency-Key` was used before with a different request.'],
  rate_limited: [
    429,
    "Over the plan's limit for this window; wait `Retry-After` seconds (also `retry_after` in the body). A 429 does not count against the limit.",
  ],
  internal_error: [500, 'A server fault; retry with backoff.'],
  service_unavailable: [503, 'Briefly unavailable; retry with backoff.'],
  ai_unavailable: [503, 'Every AI provider tried failed; `details` lists each attempt.'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Unavailable',
};
