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
