// The shape of a workspace migration (Node, main process): a version, what it does, its SQL.
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
