// Hocuspocus 3.4.4 (pinned, docs/architecture.md) sends each update of a document to every one of
// its connections, the one it came from too (Node, team server). That one has it already: an
// owner's first share (25,000 records, 6 MB) came back whole, and the desktop spent seconds
// decoding what it had just sent before it read the acknowledgement queued behind it. Here the
// update goes to the others only; the rest is Hocuspocus's own `handleUpdate`, line for line.
import { Document, OutgoingMessage } from '@hocuspocus/server';
import type { Connection } from '@hocuspocus/server';

interface UpdateHandling {
  handleUpdate(update: Uint8Array, origin: unknown): Document;
}

const prototype = Document.prototype as unknown as UpdateHandling;
if (typeof prototype.handleUpdate !== 'function')
  throw new Error(
    '@hocuspocus/server changed: Document.handleUpdate is gone (main/team/no-echo.ts)',
  );

// Replaced on the prototype: each Document binds it as its 'update' listener when constructed.
prototype.handleUpdate = function (this: Document, update: Uint8Array, origin: unknown): Document {
  this.callbacks.onUpdate(this, origin as Connection, update);
  const message = new OutgoingMessage(this.name).createSyncMessage().writeUpdate(update);
  for (const connection of this.getConnections())
    if (connection !== origin) connection.send(message.toUint8Array());
  return this;
};
