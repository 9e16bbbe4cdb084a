// IPC channel names and the app's own URL, shared by the preload (sandboxed renderer) and the
// shell (Electron main process). Pure: the preload bundle must not pull in the core.

/** Each contract operation has its own channel, so the main process can refuse unknown ones. */
export const CALL_PREFIX = 'pressroom:call:';
/** A file for an import, renderer → main (core/operations.ts receiveUpload). */
export const UPLOAD_CHANNEL = 'pressroom:upload';
/** Core events, main → renderer. */
export const EVENT_CHANNEL = 'pressroom:event';
/** The path of a file the user dropped on the page (the preload reads it from the File). */
export const DROPPED_FILE_CHANNEL = 'pressroom:dropped-file';

/** The page every window loads, served by our own protocol (not file://, not http). */
export const APP_SCHEME_NAME = 'app';
const APP_HOST = 'pressroom';
export const APP_URL = `${APP_SCHEME_NAME}://${APP_HOST}/index.html`;

/** True for our own pages. (URL.origin is "null" for custom schemes, so compare the parts.) */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME_NAME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}
