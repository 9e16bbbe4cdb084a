// The platform's limit for each field (docs/platform-api.md), in one place: the contract, the CSV
// import, the reference server and the renderer all check against these.
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
} as const;
