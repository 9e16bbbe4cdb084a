// Whether text is an absolute http or https URL. Kept apart from the schemas in validation.ts, so
// the renderer's start-up can check a URL without loading zod. Pure; runs in every process.

export function isHttpUrl(value: string): boolean {
  // Not URL.canParse: on Node 20, once optimised, it refuses hosts with Latin-1 letters
  // ("https://bücher.de") that the URL constructor reads.
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** True for a host name that never leaves this computer: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * False for an http:// URL to another computer: the API token goes with every request, and over
 * plain http anyone on the way could read it. Other URLs (https, or not a URL) are left to the
 * other checks.
 */
export function isPrivateOrSecureUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return true;
  }
  return url.protocol !== 'http:' || isLoopbackHost(url.hostname);
}
