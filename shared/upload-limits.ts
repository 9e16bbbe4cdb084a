// How big a file the page may hand the core, apart from the contract's schemas so the web host and
// the first screen read them without loading zod and every schema (issue #32).
import { MEDIA_MAX_BYTES } from './media';

/** How long the base64 text of `bytes` bytes is. */
export const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;
/**
 * A picture sent inline, base64-encoded: up to twice what a post may carry, so the core can still
 * say by how much one is over MEDIA_MAX_BYTES. The web host sizes its request limit from it.
 */
export const MAX_MEDIA_BASE64 = base64Length(2 * MEDIA_MAX_BYTES);
/**
 * The largest file an import takes from the page. It is not sent inline: the transport streams
 * it to the core first (the web host's POST /api/upload, the desktop app's upload channel), which
 * keeps it in a private file and answers the `upload` id importUpload and previewUpload name.
 */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
