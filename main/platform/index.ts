// The public face of the platform client (Node, main process).
export { createPlatformClient, readWholeList } from './client';
export type * from './client';
export { PlatformError, kindOfStatus } from './errors';
export type { PlatformErrorKind } from './errors';
export type * from './normalize';
export { parseRateLimit, parseResetHeader, parseRetryAfter } from './rate-limit';
export type { RateLimitState } from './rate-limit';
export { signWebhookBody, verifyWebhookSignature } from './webhook-signature';
