// What the publisher asks before sending an item another computer may also send (Node): in a team
// workspace, the team server's lease decides which desktop publishes each post (docs/team.md).
import type { OutboxItem } from '../../shared/domain';

export type PublishDecision =
  /** Not a shared record: this desktop publishes it as before. */
  | { kind: 'local' }
  /** Not now (the team server cannot be reached, another desktop holds the post): try later. */
  | { kind: 'wait'; reason: string }
  /** Another desktop already published it. */
  | { kind: 'sent'; remoteId: string }
  /** This desktop holds the lease: send with `key`, looking the post up first if asked to. */
  | {
      kind: 'go';
      key: string;
      lookFirst: boolean;
      /** How long before the decision another desktop may first have sent it (lookup window). */
      sentNoEarlierThanMsAgo: number;
      /** Reports the outcome under the lease's epoch; the lease ends either way. */
      finish(remoteId: string | null): Promise<void>;
      /** Gives the lease back unsent (a failure); the next holder looks the post up first. */
      abandon(): Promise<void>;
    };

export interface PublishGate {
  admit(item: OutboxItem): Promise<PublishDecision>;
}
