// jsdom lacks the layout observers that the calendar and the virtual grid use; they only
// need to exist here, since jsdom never lays anything out.
class InertResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= InertResizeObserver as unknown as typeof ResizeObserver;

// Nor media queries: here the OS prefers light and never changes (a test may stub another).
globalThis.matchMedia ??= (query: string) =>
  Object.assign(new EventTarget(), { media: query, matches: false }) as unknown as MediaQueryList;
