// Signing and verifying webhook deliveries: HMAC-SHA256 over the exact body bytes
// (docs/platform-api.md, "Webhook deliveries"). The reference server signs with it; Pressroom's
// receiver verifies with it, so both sides share one definition.
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';

export function signWebhookBody(secret: string, body: string | Uint8Array): string {
  return PREFIX + createHmac('sha256', secret).update(body).digest('hex');
}

/** Constant-time check of a signature header against the body as received. */
export function verifyWebhookSignature(
  secret: string,
  body: string | Uint8Array,
  header: string | null | undefined,
): boolean {
  if (!header?.startsWith(PREFIX)) return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
