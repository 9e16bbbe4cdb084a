// The workspace's event sink (Node, main process): what the core pushes to whoever follows it
// (the windows' live views, the web host's event stream, the CLI), fanned out to every listener.
import type { CoreEvent } from '../../shared/answers';

export class CoreEvents {
  private readonly listeners = new Set<(event: CoreEvent) => void>();

  emit(event: CoreEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Follows the workspace's events; returns the way to stop. */
  subscribe(listener: (event: CoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
