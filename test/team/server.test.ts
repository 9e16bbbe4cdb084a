// The team server in this process: tokens and roles, revocation, bounded input, claim races.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { CONTROL_AUDIT, postsMap, readPostText } from '../../shared/team-doc';
import type { ControlAuditEntry } from '../../shared/team-doc';
import { TEAM_PROTOCOL } from '../../shared/team';
import { TeamAudit } from '../../main/team/audit';
import { TeamMembers } from '../../main/team/members';
import { openTeamDb } from '../../main/team/db';
import { TeamDocuments } from '../../main/team/documents';
import { checkTeamHost, startTeamServer, TeamServerRefused } from '../../main/team/server';
import { TeamConnection } from '../../main/team-client/connection';
import { startTestTeam, until, writePost } from '../support/team';
import type { TestTeam } from '../support/team';

let team: TestTeam | undefined;
afterEach(async () => {
  await team?.close();
  team = undefined;
});

function textOf(doc: Y.Doc, uuid: string): string | undefined {
  const record = postsMap(doc).get(uuid);
  return record && readPostText(record);
}

describe('team server: who may connect and write', () => {
  it('lets a member with a valid token sync, and refuses an unknown token with a sentence', async () => {
    team = await startTestTeam();
    const owner = team.connect(team.ownerToken);
    await owner.whenSynced();
    const stranger = team.connect('prt_not-a-real-token');
    await expect(stranger.whenSynced(3000)).rejects.toThrow(/unknown or was revoked/);
  });

  it('lets a desktop close while its socket is still connecting, and nothing throws afterwards', async () => {
    team = await startTestTeam();
    const uncaught: unknown[] = [];
    const collect = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', collect);
    try {
      team.connect(team.ownerToken).close();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.off('uncaughtException', collect);
    }
    expect(uncaught).toEqual([]);
  });

  it('shows one desktop’s draft to another, both ways', async () => {
    team = await startTestTeam();
    const a = team.connect(team.ownerToken);
    const b = team.connect(team.invite('editor'));
    await Promise.all([a.whenSynced(), b.whenSynced()]);
    const uuid = randomUUID();
    writePost(dataOf(a), uuid, 'Hello from A');
    await until(() => textOf(dataOf(b), uuid) === 'Hello from A', 2000, 'B to see A’s draft');
    const reply = randomUUID();
    writePost(dataOf(b), reply, 'Hello from B');
    await until(() => textOf(dataOf(a), reply) === 'Hello from B', 2000, 'A to see B’s draft');
  });

  it('sends a desktop’s update to the others, not back to the desktop it came from', async () => {
    team = await startTestTeam();
    // The sizes of the messages each desktop's socket receives (ws hands each to the listener).
    const connections: TeamConnection[] = [];
    const desktop = (token: string) => {
      const sizes: number[] = [];
      const doc = new Y.Doc();
      const connection = new TeamConnection({
        link: { url: team!.server.url, team: team!.teamId },
        token,
        doc,
        beforeReceive: ((data: ArrayBuffer) =>
          sizes.push(data.byteLength)) as unknown as () => void,
      });
      connections.push(connection);
      return { connection, doc, sizes };
    };
    try {
      const a = desktop(team.ownerToken);
      const b = desktop(team.invite('editor'));
      await Promise.all([a.connection.whenSynced(), b.connection.whenSynced()]);
      const uuid = randomUUID();
      writePost(a.doc, uuid, 'x'.repeat(100_000));
      await until(() => textOf(b.doc, uuid)?.length === 100_000, 2000, 'B to see A’s draft');
      await until(() => a.connection.unsyncedChanges === 0, 2000, 'the server to acknowledge A');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(b.sizes.filter((size) => size > 100_000)).toHaveLength(1);
      expect(a.sizes.filter((size) => size > 100_000)).toEqual([]);
    } finally {
      for (const connection of connections) connection.close();
    }
  });

  it('refuses a viewer’s updates on the server: nobody else sees them, nothing is stored', async () => {
    team = await startTestTeam();
    const editor = team.connect(team.ownerToken);
    const viewer = team.connect(team.invite('viewer'));
    await Promise.all([editor.whenSynced(), viewer.whenSynced()]);
    writePost(dataOf(viewer), randomUUID(), 'I should not be here');
    const marker = randomUUID();
    writePost(dataOf(editor), marker, 'marker');
    await until(() => textOf(dataOf(viewer), marker) === 'marker', 2000, 'the viewer to read');
    // The viewer's post was sent before the marker; had the server taken it, the editor has it now.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(postsMap(dataOf(editor)).size).toBe(1);
    const stored = team.server.db.prepare('SELECT count(*) AS n FROM doc_updates').get() as {
      n: number;
    };
    const restored = new Y.Doc();
    expect(stored.n).toBeGreaterThan(0);
    new TeamDocuments(team.server.db).attach(`${team.teamId}/data`, restored);
    expect([...postsMap(restored).keys()]).toEqual([marker]);
  });

  it('refuses a desktop speaking another protocol version with a sentence', async () => {
    team = await startTestTeam();
    const socket = new WebSocket(`${team.server.url}/?protocol=${TEAM_PROTOCOL + 1}`);
    const closed = await rawAuth(socket, team.ownerToken, `${team.teamId}/data`);
    expect(closed).toContain(
      'This team server speaks protocol 1, older than this desktop’s 2: update the team server',
    );
    const older = new WebSocket(`${team.server.url}/?protocol=0`);
    expect(await rawAuth(older, team.ownerToken, `${team.teamId}/data`)).toContain(
      'This team server speaks protocol 1, newer than this desktop’s 0: update Pressroom on this desktop.',
    );
  });

  it('disconnects a revoked token within 5 s, even when another process revoked it', async () => {
    team = await startTestTeam();
    const editorToken = team.invite('editor', 'Eve');
    const editor = team.connect(editorToken);
    await editor.whenSynced();
    const elsewhere = openTeamDb(team.dataDir);
    const members = new TeamMembers(elsewhere);
    const eve = members.list(team.teamId).find((member) => member.name === 'Eve')!;
    members.revoke(team.teamId, eve.id);
    elsewhere.close();
    const took = await until(
      () => editor.refusal !== null,
      5000,
      'the revoked member to be cut off',
    );
    expect(took).toBeLessThan(5000);
    expect(editor.refusal).toMatch(/revoked/);
  });

  it('refuses to serve beyond this computer without TLS', async () => {
    expect(() => checkTeamHost('0.0.0.0', false)).toThrow(TeamServerRefused);
    expect(() => checkTeamHost('127.0.0.1', false)).not.toThrow();
    await expect(
      startTeamServer({ port: 0, dataDir: '/nonexistent', host: '192.168.1.10' }),
    ).rejects.toThrow(/only over TLS/);
  });
});

describe('team server: bad input', () => {
  it('closes a connection that sends malformed frames, an oversized frame or a flood, and keeps serving', async () => {
    team = await startTestTeam({ limits: { maxFrameBytes: 64 * 1024, maxMessagesPerSecond: 50 } });
    const owner = team.connect(team.ownerToken);
    await owner.whenSynced();

    const garbage = new WebSocket(`${team.server.url}/?protocol=${TEAM_PROTOCOL}`);
    await opened(garbage);
    garbage.send(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02]));
    expect(await closedWith(garbage)).toBeGreaterThan(1000);

    const big = new WebSocket(`${team.server.url}/?protocol=${TEAM_PROTOCOL}`);
    await opened(big);
    big.send(Buffer.alloc(128 * 1024, 1));
    expect(await closedWith(big)).toBe(1009);

    const flood = new WebSocket(`${team.server.url}/?protocol=${TEAM_PROTOCOL}`);
    await opened(flood);
    // Well-formed frames for a document not yet authenticated: Hocuspocus would queue them all.
    const queued = Buffer.from([1, 0x78, 0x00, 0x00]);
    for (let i = 0; i < 200; i++) flood.send(queued);
    expect(await closedWith(flood)).toBe(1008);

    // Malformed requests on an authenticated connection get answers, not a crash.
    const answer = await owner.request({ kind: 'claim', post: 'not-a-uuid', device: 'x' } as never);
    expect(answer).toMatchObject({ ok: false, code: 'malformed' });
    const uuid = randomUUID();
    writePost(dataOf(owner), uuid, 'still serving');
    const other = team.connect(team.invite('editor'));
    await other.whenSynced();
    await until(
      () => textOf(dataOf(other), uuid) === 'still serving',
      2000,
      'the server to keep serving',
    );
  });
});

describe('team server: the publish lease', () => {
  it('gives exactly one of three racing desktops the claim, and refuses a stale epoch’s published', async () => {
    team = await startTestTeam({ leaseMs: 200 });
    const desktops = [
      team.connect(team.ownerToken),
      team.connect(team.invite('editor')),
      team.connect(team.invite('editor')),
    ];
    await Promise.all(desktops.map((desktop) => desktop.whenSynced()));
    for (let race = 0; race < 5; race++) {
      const uuid = randomUUID();
      writePost(dataOf(desktops[0]!), uuid, `due ${race}`, {
        status: 'scheduled',
        scheduledAt: Date.now() - 1000,
      });
      await until(
        () => desktops.every((desktop) => textOf(dataOf(desktop), uuid) !== undefined),
        2000,
      );
      const answers = await Promise.all(
        desktops.map((desktop, i) =>
          desktop.request({ kind: 'claim', post: uuid, device: `d${i}` }),
        ),
      );
      expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
      expect(
        answers.filter((answer) => !answer.ok).map((answer) => !answer.ok && answer.code),
      ).toEqual(['held', 'held']);
    }

    const uuid = randomUUID();
    writePost(dataOf(desktops[0]!), uuid, 'partitioned', {
      status: 'scheduled',
      scheduledAt: Date.now() - 1000,
    });
    await until(() => textOf(dataOf(desktops[1]!), uuid) !== undefined, 2000);
    const first = await desktops[0]!.request({ kind: 'claim', post: uuid, device: 'd0' });
    expect(first).toMatchObject({
      ok: true,
      value: { epoch: 1, earlierHolder: false, firstClaimedMsAgo: 0 },
    });
    await new Promise((resolve) => setTimeout(resolve, 250)); // the lease runs out
    const second = await desktops[1]!.request({ kind: 'claim', post: uuid, device: 'd1' });
    expect(second).toMatchObject({ ok: true, value: { epoch: 2, earlierHolder: true } });
    // The new holder's lookup reaches back to the first claim, told as a server-measured duration.
    expect(second.ok && second.value.firstClaimedMsAgo).toBeGreaterThanOrEqual(250);
    const late = await desktops[0]!.request({
      kind: 'published',
      post: uuid,
      epoch: 1,
      remoteId: 'p_late',
    });
    expect(late).toMatchObject({ ok: false, code: 'stale_epoch' });
    const done = await desktops[1]!.request({
      kind: 'published',
      post: uuid,
      epoch: 2,
      remoteId: 'p_1',
    });
    expect(done).toMatchObject({ ok: true });
    const again = await desktops[2]!.request({ kind: 'claim', post: uuid, device: 'd2' });
    expect(again).toMatchObject({ ok: false, code: 'published' });
  });

  it('refuses a claim of a post not yet due by the server’s clock, and any request from a viewer', async () => {
    team = await startTestTeam();
    const owner = team.connect(team.ownerToken);
    const viewer = team.connect(team.invite('viewer'));
    await Promise.all([owner.whenSynced(), viewer.whenSynced()]);
    const uuid = randomUUID();
    writePost(dataOf(owner), uuid, 'later', {
      status: 'scheduled',
      scheduledAt: Date.now() + 600_000,
    });
    await until(() => textOf(dataOf(viewer), uuid) !== undefined, 2000);
    expect(await owner.request({ kind: 'claim', post: uuid, device: 'd' })).toMatchObject({
      ok: false,
      code: 'not_due',
    });
    expect(await viewer.request({ kind: 'claim', post: uuid, device: 'v' })).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
  });
});

function dataOf(connection: { control: Y.Doc }): Y.Doc {
  return (connection as unknown as { options: { doc: Y.Doc } }).options.doc;
}

function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
}

function closedWith(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

/** Sends Hocuspocus's auth message by hand and resolves with the permission-denied reason. */
async function rawAuth(socket: WebSocket, token: string, documentName: string): Promise<string> {
  await opened(socket);
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, documentName);
  encoding.writeVarUint(encoder, 2); // Auth
  encoding.writeVarUint(encoder, 0); // Token
  encoding.writeVarString(encoder, token);
  socket.send(encoding.toUint8Array(encoder));
  return new Promise((resolve) =>
    socket.once('message', (data: Buffer) => {
      const decoder = decoding.createDecoder(new Uint8Array(data));
      decoding.readVarString(decoder);
      decoding.readVarUint(decoder);
      decoding.readVarUint(decoder);
      resolve(decoding.readVarString(decoder));
    }),
  );
}

describe("the control document's audit log", () => {
  it('keeps the latest 1,000 entries in the document, every one in the database', async () => {
    team = await startTestTeam();
    const owner = team.connect(team.ownerToken);
    await owner.whenSynced();
    const member = team.server.members.authenticate(team.ownerToken)!;
    const log = owner.control.getArray<ControlAuditEntry>(CONTROL_AUDIT);
    for (const [round, count] of [
      ['a', 1_200],
      ['b', 600],
    ] as const) {
      const db = openTeamDb(team.dataDir);
      const audit = new TeamAudit(db, Date.now);
      db.transaction(() => {
        for (let i = 0; i < count; i++) audit.append(member, 'note', null, `${round}${i}`);
      })();
      db.close();
      // Any change the server reflects brings the log up to date.
      await owner.request({ kind: 'set_approval', required: round === 'a', bots: null });
      await until(
        () => log.length > 0 && log.get(log.length - 2).detail === `${round}${count - 1}`,
        3000,
        `round ${round} in the log`,
      );
    }
    expect(log.length).toBe(1_000);
    const stored = openTeamDb(team.dataDir);
    expect(
      new TeamAudit(stored, Date.now).latestAfter(team.teamId, 0, 5_000).length,
    ).toBeGreaterThan(1_800);
    stored.close();
  });
});
