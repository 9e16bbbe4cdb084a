// What a slice of the workspace store offers besides its tables (Node, main process): one
// transaction over them all. A core service is handed the tables it reads and writes and this,
// never the whole WorkspaceStore (and never the outbox, whose writes core/outbox.ts owns).
export interface Transactional {
  /** Runs `work` in one immediate transaction (WorkspaceStore.transaction). */
  transaction<T>(work: () => T): T;
}
