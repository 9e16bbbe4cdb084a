// Pictures uploaded into Pressroom (pure, every process). The platform takes only http(s) URLs
// (docs/platform-api.md, "Media"), so an uploaded file lives in the workspace and a post refers to
// it as `pressroom-media:<sha256>.<ext>` until publishing puts it on the user's media host.

export const LOCAL_MEDIA_SCHEME = 'pressroom-media:';

/** The kinds of file a post may carry, told apart by their first bytes, never by name or label. */
export const MEDIA_TYPES = {
  'image/png': { extension: 'png', magic: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]] },
  'image/jpeg': { extension: 'jpg', magic: [[0xff, 0xd8, 0xff]] },
  'image/gif': { extension: 'gif', magic: [[0x47, 0x49, 0x46, 0x38]] },
  'image/webp': { extension: 'webp', magic: [[0x52, 0x49, 0x46, 0x46]] },
} as const satisfies Record<string, { extension: string; magic: readonly (readonly number[])[] }>;

export type MediaType = keyof typeof MEDIA_TYPES;

/** An uploaded file's largest size, and its thumbnail's (thumbnails cross into every list). */
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
export const THUMBNAIL_MAX_BYTES = 64 * 1024;

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) =>
  magic.every((byte, i) => bytes[at + i] === byte);

/** The file's type by its content, or null when it is not a picture Pressroom can post. */
export function sniffMediaType(bytes: Uint8Array): MediaType | null {
  for (const type of Object.keys(MEDIA_TYPES) as MediaType[]) {
    const magic: readonly (readonly number[])[] = MEDIA_TYPES[type].magic;
    if (!magic.some((prefix) => startsWith(bytes, prefix))) continue;
    // RIFF is a family; a WebP has "WEBP" at byte 8.
    if (type === 'image/webp' && !startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) continue;
    return type;
  }
  return null;
}

export function isLocalMedia(url: string): boolean {
  return url.startsWith(LOCAL_MEDIA_SCHEME);
}

/** An uploaded file's name wherever it is kept or put: its content's hash and its type. */
export function localMediaFile(sha256Hex: string, type: MediaType): string {
  return `${sha256Hex}.${MEDIA_TYPES[type].extension}`;
}

/** The reference a post keeps for an uploaded file. */
export function localMediaRef(sha256Hex: string, type: MediaType): string {
  return `${LOCAL_MEDIA_SCHEME}${localMediaFile(sha256Hex, type)}`;
}

/** The stored file's name within a reference, or null when it is not a well-formed one. */
export function localMediaName(url: string): string | null {
  const name = url.slice(LOCAL_MEDIA_SCHEME.length);
  return isLocalMedia(url) && /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/.test(name) ? name : null;
}

/**
 * Why a post's pictures cannot be kept or sent, or null: an uploaded picture must be in the
 * workspace (`isStored`), and publishing one needs a media host (`hostSet`; true when the post
 * is not going out). One wording for the core and the CSV import; it follows a field's name.
 */
export function picturesProblem(
  urls: readonly string[],
  isStored: (name: string) => boolean,
  hostSet: boolean,
): string | null {
  const local = urls.filter(isLocalMedia);
  const missing = local.find((url) => {
    const name = localMediaName(url);
    return !name || !isStored(name);
  });
  if (missing)
    return `${missing} is not among this workspace's uploaded pictures; remove it and upload the picture again`;
  if (local.length > 0 && !hostSet)
    return `has ${local.length === 1 ? 'an uploaded picture' : `${local.length} uploaded pictures`}, and the platform takes pictures only by web address: set a media host first (pressroom media host --folder DIR --url URL)`;
  return null;
}
