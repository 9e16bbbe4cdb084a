// The platform's answers as the rest of main/ sees them (Node, main process): the canonical types.
// The schemas and readers that make them are the client's own, imported from their modules.
export type * from './account';
export type * from './ai';
export type * from './errors';
export type * from './lists';
export type * from './people';
export type * from './posts';
export type * from './products';
