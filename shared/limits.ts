// The platform's limit for each field (docs/platform-api.md), and the bounds of Pressroom's own
// settings, in one place: the contract, the CSV import, the settings service, the reference server
// and the renderer all check against these.
export const LIMITS = {
  postText: 4096,
  postMediaUrls: 10,
  messageText: 4096,
  productSku: 64,
  productName: 200,
  productDescription: 10_000,
  botName: 64,
  botDescription: 500,
  tag: 50,
  /** Pressroom's own settings: how late a post may still go out (a day, in minutes)... */
  graceMinutes: 24 * 60,
  /** ...and how many days either side of a post the same text counts as a duplicate. */
  duplicateWindowDays: 90,
} as const;
