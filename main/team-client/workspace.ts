// A workspace joined to a team (Node): its Yjs document kept in the workspace's own file, the
// mirror between the document and the rows, and the connection to the team server. Offline, edits
// go on into the document and the file; on reconnect Yjs merges them both ways.
import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import { parseTeamLink } from '../../shared/team';
import { CONTROL_MEMBERS, CONTROL_POSTS, postsMap } from '../../shared/team-doc';
import type { ControlPostEntry } from '../../shared/team-doc';
import type { TeamHistoryEntry, TeamLink, TeamPresence, TeamStatus } from '../../shared/team';
import type { WorkspaceStore } from '../store';
import { TeamStore } from '../store/team';
import { TeamPendingStore } from '../store/team-pending';
import { TeamConnection } from './connection';
import { postHistory } from './history';
import { TeamMirror } from './mirror';
import type { PulledKind } from './mirror';
import { TeamReview } from './review';

/** Stored updates past which the file's updates are folded into one when the workspace opens. */
const COMPACT_AFTER = 1000;

/**
 * What this desktop tells the others by Yjs awareness. `member` is its member id, which the team
 * server answered (`me`); the others read the name beside it in the control document, which only
 * the server writes. Presence is a hint, not a right: nothing is decided by it.
 */
interface Presence {
  device: string;
  member: string | null;
  editing: string | null;
}

export interface TeamWorkspaceOptions {
  /** How often changed rows are written into the document. */
  pushEveryMs?: number;
  now?: () => number;
  /** Told after another desktop's change was written into the rows. */
  onPulled?: (what: PulledKind) => void;
}

export class TeamWorkspace {
  readonly doc = new Y.Doc();
  readonly connection: TeamConnection;
  /** Approvals asked from here, and the transitions waiting to sync. */
  readonly review: TeamReview;
  readonly pending: TeamPendingStore;
  private readonly team: TeamStore;
  private readonly mirror: TeamMirror;
  private readonly stopFollowing: () => void;
  private readonly timer: NodeJS.Timeout;
  private readonly postListeners = new Set<(uuids: readonly string[]) => void>();
  /** Who this desktop is in the team, once the server said so; and the post it edits. */
  private presence: Presence;
  private askingMember = false;

  /** Joins `store`'s workspace to the team of `linkText`; its posts and products get UUIDs. */
  static join(
    store: WorkspaceStore,
    linkText: string,
    token: string,
    options: TeamWorkspaceOptions = {},
  ): TeamWorkspace {
    const link = parseTeamLink(linkText);
    if (typeof link === 'string') throw new Error(link);
    const team = new TeamStore(store.db, options.now ?? Date.now);
    store.transaction(() => {
      team.setLink({ url: link.url, team: link.team, device: `d_${randomUUID().slice(0, 8)}` });
      team.assignUuids();
    });
    return new TeamWorkspace(store, link, token, options);
  }

  /** The team workspace `store` was joined to, or undefined for a workspace of one. */
  static open(
    store: WorkspaceStore,
    token: string,
    options: TeamWorkspaceOptions = {},
  ): TeamWorkspace | undefined {
    const link = new TeamStore(store.db, options.now ?? Date.now).link();
    return link && new TeamWorkspace(store, { url: link.url, team: link.team }, token, options);
  }

  private constructor(
    store: WorkspaceStore,
    private readonly link: TeamLink,
    token: string,
    options: TeamWorkspaceOptions,
  ) {
    const now = options.now ?? Date.now;
    this.team = new TeamStore(store.db, now);
    const stored = this.team.updates();
    Y.transact(this.doc, () => {
      for (const update of stored) Y.applyUpdate(this.doc, update);
    });
    if (stored.length > COMPACT_AFTER) this.team.compact(Y.encodeStateAsUpdate(this.doc));
    // Every update, made here or received, is in the file before anything else happens to it.
    this.doc.on('update', (update: Uint8Array) => this.team.appendUpdate(update));
    this.mirror = new TeamMirror(
      this.doc,
      this.team,
      store.schedules,
      (work) => store.transaction(work),
      now,
      (uuids) => this.tellPosts(uuids),
    );
    this.mirror.pullAll();
    const stopMirror = this.mirror.follow(options.onPulled);
    this.pushLocalChanges();
    this.connection = new TeamConnection({
      link,
      token,
      doc: this.doc,
      // A message may still arrive on a socket being closed, after the file is.
      beforeReceive: () => {
        if (!this.closed) this.pushLocalChanges();
      },
    });
    const results = this.connection.control.getMap<ControlPostEntry>(CONTROL_POSTS);
    const onResults = (event: Y.YMapEvent<ControlPostEntry>) =>
      this.tellPosts([...event.keysChanged]);
    results.observe(onResults);
    this.stopFollowing = () => {
      stopMirror();
      results.unobserve(onResults);
    };
    this.pending = new TeamPendingStore(store.db, now);
    this.review = new TeamReview(this.connection, this.pending);
    this.timer = setInterval(() => this.tick(), options.pushEveryMs ?? 100);
    this.presence = { device: this.device, member: null, editing: null };
    this.connection.awareness?.setLocalState(this.presence);
  }

  /**
   * Follows the shared posts another desktop changed, or whose lease or result the team server
   * wrote; returns the way to stop. (Rows are written before the listener hears of them.)
   */
  onSharedPosts(listener: (uuids: readonly string[]) => void): () => void {
    this.postListeners.add(listener);
    return () => this.postListeners.delete(listener);
  }

  private tellPosts(uuids: readonly string[]): void {
    for (const listener of this.postListeners) listener(uuids);
  }

  /** Every post the team shares, by UUID. */
  sharedPosts(): string[] {
    return [...postsMap(this.doc).keys()];
  }

  /** Where the team server says the post went out (by whichever desktop), if it did. */
  resultOf(uuid: string): ControlPostEntry['result'] {
    return (
      this.connection.control.getMap<ControlPostEntry>(CONTROL_POSTS).get(uuid)?.result ?? null
    );
  }

  /** Who in the team did what to the post `postId` (this desktop's id), oldest first. */
  postHistory(postId: number): TeamHistoryEntry[] {
    const uuid = this.team.uuidOfPost(postId);
    return uuid ? postHistory(this.connection.control, uuid) : [];
  }

  /** Tells the others which post this desktop edits (its UUID; null: none); shown beside it. */
  setEditing(post: string | null): void {
    this.presence = { ...this.presence, editing: post };
    this.connection.awareness?.setLocalState(this.presence);
  }

  /** Asks the server who this desktop's token belongs to, once; a lost answer is asked again. */
  private learnMember(): void {
    if (this.presence.member || this.askingMember || !this.connection.connected) return;
    this.askingMember = true;
    this.connection
      .request({ kind: 'me' })
      .then((answer) => {
        if (!answer.ok || this.closed) return;
        this.presence = { ...this.presence, member: answer.value.member.id };
        this.connection.awareness?.setLocalState(this.presence);
      })
      .catch(() => undefined)
      .finally(() => {
        this.askingMember = false;
      });
  }

  /** setEditing by this file's post id, as the editor knows it. */
  setEditingPost(postId: number | null): void {
    this.setEditing(postId === null ? null : (this.team.uuidOfPost(postId) ?? null));
  }

  /** The other desktops here now, whose member each is (by name), and what each edits. */
  present(): TeamPresence[] {
    const awareness = this.connection.awareness;
    if (!awareness) return [];
    const names = this.connection.control.getMap<string>(CONTROL_MEMBERS);
    return [...awareness.getStates().entries()]
      .filter(([client]) => client !== awareness.clientID)
      .map(([, state]) => state as Partial<Presence>)
      .filter((state): state is Presence => typeof state.device === 'string')
      .map((state) => {
        const editing = typeof state.editing === 'string' ? state.editing : null;
        const editingPostId = editing === null ? null : (this.team.postIdOf(editing) ?? null);
        const name = typeof state.member === 'string' ? (names.get(state.member) ?? null) : null;
        return { device: state.device, name, editing, editingPostId };
      });
  }

  private tick(): void {
    this.pushLocalChanges();
    this.learnMember();
    // Transitions asked offline go out once the server answers (or is known to refuse us).
    if (this.connection.connected || this.connection.refusal)
      this.review.sync().catch((error: unknown) => {
        console.error('Team transitions not synced:', error);
      });
  }

  /** The file's write mark after the last push: while it holds, no row changed to push. */
  private pushedAtMark: string | null = null;

  /**
   * Writes what changed in the rows since the last push into the document. Asked before every
   * message and every tick, so it returns at once when no row was written since (a push reads
   * every shared record to find deletions).
   */
  pushLocalChanges(): void {
    if (this.pushedAtMark === this.team.writeMark()) return;
    const since = this.team.link()?.pushedUpto ?? 0;
    const upto = this.mirror.push(since);
    if (upto > since) this.team.markPushed(upto);
    this.pushedAtMark = this.team.writeMark();
  }

  status(): TeamStatus {
    const link = this.team.link();
    const { connection } = this;
    const state = connection.refusal ? 'refused' : connection.connected ? 'connected' : 'offline';
    return {
      team: this.link.team,
      url: this.link.url,
      device: link?.device ?? '',
      state,
      refusal: connection.refusal,
      offlineSince: state === 'connected' ? null : connection.disconnectedAt,
      waiting: connection.unsyncedChanges,
      lastSyncedAt: connection.lastSyncedAt,
      publishes: state === 'connected',
      present: this.present(),
    };
  }

  /** The UUID the team knows a local post by (undefined: not shared). */
  postUuid(id: number): string | undefined {
    return this.team.uuidOfPost(id);
  }

  /** Why post `id` waits for an approver before it may go out (undefined: it may, or is not shared). */
  approvalWait(id: number, botId: string | null): string | undefined {
    const uuid = this.postUuid(id);
    return uuid === undefined ? undefined : this.review.approvalWait(uuid, botId);
  }

  postIdOf(uuid: string): number | undefined {
    return this.team.postIdOf(uuid);
  }

  get device(): string {
    return this.team.link()?.device ?? '';
  }

  private closed = false;

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.pushLocalChanges();
    this.stopFollowing();
    this.connection.close();
    this.doc.destroy();
  }
}
