// The team in the app: the banner's team state in words, and Settings → Team (a workspace of one,
// then a joined one: members with roles, an invite whose token is shown once, a revocation asked
// first), scanned by axe.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountSettings, Status } from '../../shared/domain';
import type { TeamMember, TeamOverview, TeamStatus } from '../../shared/team';
import AccountBanner from '../../renderer/src/components/AccountBanner.svelte';
import SettingsScreen from '../../renderer/src/screens/SettingsScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { Shell } from '../../renderer/src/state/shell.svelte';
import PostEditorDialog from '../../renderer/src/components/post-editor/PostEditorDialog.svelte';
import CalendarScreen from '../../renderer/src/screens/CalendarScreen.svelte';
import { PostEditor } from '../../renderer/src/state/post-editor.svelte';
import { FakeTransport, ok } from './fake-transport';
import { post, shellWith, stubJsdom } from './post-editor-fixtures';

const TOKEN = 'tok_4c1d0c8e2f6b4a1e9d7c5b3a1f0e2d4c';
const SERVER_KEY = 'prk_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d';
/** A team server of a newer protocol: the core refuses the whole form, not a field. */
const NEWER_SERVER = 'wss://newer.example.com';
const UPDATE_DESKTOP =
  'This team server speaks protocol 2, newer than this desktop’s 1: update Pressroom on this desktop. This workspace was not changed.';
const versionRefusal = {
  ok: false as const,
  error: { kind: 'not_allowed' as const, message: UPDATE_DESKTOP },
};
const CONNECTED: TeamStatus = {
  team: 't_0123456789abcdef',
  url: 'wss://team.example.com',
  device: 'd_ab12cd34',
  state: 'connected',
  refusal: null,
  offlineSince: null,
  waiting: 0,
  lastSyncedAt: Date.UTC(2026, 10, 27, 9, 0),
  publishes: true,
  present: [{ device: 'd_99887766', name: null, editing: null, editingPostId: null }],
};
const member = (id: string, name: string, role: TeamMember['role']): TeamMember => ({
  id,
  name,
  role,
  createdAt: Date.UTC(2026, 10, 20, 8, 0),
  revokedAt: null,
});

function withStatus(team: TeamStatus | null): Shell {
  const shell = new Shell(new FakeTransport());
  shell.status = { online: true, paused: null, team } as Status;
  return shell;
}

function settingsWith(overview: TeamOverview, mode: AccountSettings['mode'] = 'offline') {
  let members = overview.members;
  let status = overview.status;
  const transport = new FakeTransport({
    joinTeam: (input) => {
      if ((input as { link: string }).link.startsWith(NEWER_SERVER)) return versionRefusal;
      if ((input as { token: string }).token !== TOKEN)
        return {
          ok: false,
          error: {
            kind: 'invalid_input',
            message: 'token: refused',
            issues: [{ field: 'token', message: 'The team server refused this desktop' }],
          },
        };
      status = CONNECTED;
      members = [member('m_owner', 'Ada', 'owner')];
      return ok(status);
    },
    status: () => ok({ online: true, paused: null, team: status } as Status),
    getSettings: () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }),
    listBots: () => ok([]),
    getMediaHost: () => ok(null),
    getTeam: () => ok({ ...overview, status, members }),
    createTeam: (input) => {
      if ((input as { url: string }).url === NEWER_SERVER) return versionRefusal;
      if ((input as { serverKey: string }).serverKey !== SERVER_KEY)
        return {
          ok: false,
          error: {
            kind: 'invalid_input',
            message: 'serverKey: refused',
            issues: [
              { field: 'serverKey', message: 'The team server did not take this server key' },
            ],
          },
        };
      status = CONNECTED;
      members = [member('m_owner', 'Ada', 'owner')];
      return ok(status);
    },
    inviteTeamMember: () => {
      const bea = member('m_bea', 'Bea', 'viewer');
      members = [...(members ?? []), bea];
      return ok({ member: bea, token: TOKEN });
    },
    revokeTeamMember: (input) => {
      const id = (input as { member: string }).member;
      members = (members ?? []).map((m) => (m.id === id ? { ...m, revokedAt: Date.now() } : m));
      return ok(members.find((m) => m.id === id));
    },
  });
  const shell = new Shell(transport);
  shell.status = { online: true, paused: null, team: overview.status } as Status;
  shell.settings = { account: { mode } } as Shell['settings'];
  render(SettingsScreen, { context: shellContext(shell) });
  const section = () => screen.getByRole('region', { name: 'Team' });
  return { transport, section };
}

async function axeViolations(element: Element): Promise<string[]> {
  // jsdom draws nothing, so colour contrast is left to the e2e scans.
  const result = await axe.run(element, { rules: { 'color-contrast': { enabled: false } } });
  return result.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

afterEach(() => cleanup());

describe('the banner', () => {
  it('says the team is connected, and how many others are here', () => {
    render(AccountBanner, { context: shellContext(withStatus(CONNECTED)) });
    expect(screen.getByText(/^Team connected · 1 more here$/)).toBeTruthy();
    expect(screen.queryByText(/not publishing from here/)).toBeNull();
  });

  it('says offline since when, the changes waiting, the last sync, and that team posts wait', () => {
    const offline: TeamStatus = {
      ...CONNECTED,
      state: 'offline',
      offlineSince: Date.UTC(2026, 10, 27, 9, 30),
      waiting: 3,
      publishes: false,
      present: [],
    };
    render(AccountBanner, { context: shellContext(withStatus(offline)) });
    const pill = screen.getByText(/^Team offline since/);
    expect(pill.textContent).toMatch(/3 changes waiting to sync · last synced/);
    expect(pill.getAttribute('title')).toMatch(/does not publish team posts until it reaches/);
    expect(screen.getByText('Team posts wait: not publishing from here')).toBeTruthy();
  });

  it('shows nothing of a team for a workspace of one', () => {
    render(AccountBanner, { context: shellContext(withStatus(null)) });
    expect(screen.queryByText(/^Team /)).toBeNull();
  });
});

describe('Settings → Team', () => {
  it('joins a workspace of one with a link and a token, the token typed hidden and then dropped', async () => {
    const { transport, section } = settingsWith({
      status: null,
      members: null,
      membersProblem: null,
    });
    const team = within(section());
    expect(await team.findByText(/This workspace is yours alone/)).toBeTruthy();
    expect(await axeViolations(section())).toEqual([]);
    const link = 'wss://team.example.com#t_0123456789abcdef';
    const tokenField = team.getByLabelText(/Your member token/) as HTMLInputElement;
    expect(tokenField.type).toBe('password');
    await fireEvent.input(team.getByLabelText(/Team link/), { target: { value: link } });
    await fireEvent.input(tokenField, { target: { value: 'wrong' } });
    await fireEvent.click(team.getByRole('button', { name: 'Join the team' }));
    expect(await team.findByText('The team server refused this desktop')).toBeTruthy();

    await fireEvent.input(tokenField, { target: { value: TOKEN } });
    await fireEvent.click(team.getByRole('button', { name: 'Join the team' }));
    await team.findByRole('cell', { name: 'Ada' });
    expect(transport.callsOf('joinTeam')).toEqual([
      { link, token: 'wrong' },
      { link, token: TOKEN },
    ]);
    expect(section().innerHTML).not.toContain(TOKEN);
    expect(team.getByText(link)).toBeTruthy();
  });

  it('creates a team from a workspace of one with a server key typed hidden and then dropped', async () => {
    const { transport, section } = settingsWith({
      status: null,
      members: null,
      membersProblem: null,
    });
    const team = within(section());
    const keyField = (await team.findByLabelText(/Server key/)) as HTMLInputElement;
    expect(keyField.type).toBe('password');
    await fireEvent.click(team.getByRole('button', { name: 'Create the team' }));
    expect(transport.callsOf('createTeam')).toEqual([]); // the core's checks first: all blank
    const typed = { url: 'wss://team.example.com', name: 'Shop', owner: 'Ada' };
    await fireEvent.input(team.getByLabelText(/Team server/), { target: { value: typed.url } });
    await fireEvent.input(team.getByLabelText(/Team name/), { target: { value: typed.name } });
    await fireEvent.input(team.getByLabelText(/Your name/), { target: { value: typed.owner } });
    await fireEvent.input(keyField, { target: { value: 'wrong' } });
    await fireEvent.click(team.getByRole('button', { name: 'Create the team' }));
    expect(await team.findByText('The team server did not take this server key')).toBeTruthy();
    await fireEvent.input(keyField, { target: { value: SERVER_KEY } });
    await fireEvent.click(team.getByRole('button', { name: 'Create the team' }));
    await team.findByRole('cell', { name: 'Ada' });
    expect(transport.callsOf('createTeam')).toEqual([
      { ...typed, serverKey: 'wrong' },
      { ...typed, serverKey: SERVER_KEY },
    ]);
    expect(section().innerHTML).not.toContain(SERVER_KEY);
  });

  it('shows a team server of another version as the form’s error, not the token’s or the key’s', async () => {
    const { transport, section } = settingsWith({
      status: null,
      members: null,
      membersProblem: null,
    });
    const team = within(section());
    const tokenField = (await team.findByLabelText(/Your member token/)) as HTMLInputElement;
    const linkField = team.getByLabelText(/Team link/) as HTMLInputElement;
    await fireEvent.input(linkField, { target: { value: `${NEWER_SERVER}#t_0123456789abcdef` } });
    await fireEvent.input(tokenField, { target: { value: 'wrong' } });
    await fireEvent.click(team.getByRole('button', { name: 'Join the team' }));
    const joinForm = team.getByRole('button', { name: 'Join the team' }).closest('form')!;
    expect((await within(joinForm).findByRole('alert')).textContent).toBe(UPDATE_DESKTOP);
    expect(tokenField.getAttribute('aria-invalid')).toBeNull();
    expect(linkField.getAttribute('aria-invalid')).toBeNull();
    expect(joinForm.textContent).not.toContain('refused this desktop');
    // The typed link and token stay, to join again once this desktop is updated.
    expect(tokenField.value).toBe('wrong');
    expect(transport.callsOf('joinTeam')).toHaveLength(1);

    const createForm = team.getByRole('button', { name: 'Create the team' }).closest('form')!;
    const create = within(createForm);
    await fireEvent.input(create.getByLabelText(/Team server/), {
      target: { value: NEWER_SERVER },
    });
    await fireEvent.input(create.getByLabelText(/Server key/), { target: { value: SERVER_KEY } });
    await fireEvent.input(create.getByLabelText(/Team name/), { target: { value: 'Shop' } });
    await fireEvent.input(create.getByLabelText(/Your name/), { target: { value: 'Ada' } });
    await fireEvent.click(create.getByRole('button', { name: 'Create the team' }));
    expect((await create.findByRole('alert')).textContent).toBe(UPDATE_DESKTOP);
    for (const label of [/Team server/, /Server key/])
      expect(create.getByLabelText(label).getAttribute('aria-invalid')).toBeNull();
    expect(team.getByText(/This workspace is yours alone/)).toBeTruthy();
    expect(await axeViolations(section())).toEqual([]);
  });

  it('offers no join on the demo workspace, and says why and how to start a real one', async () => {
    const { section } = settingsWith({ status: null, members: null, membersProblem: null }, 'demo');
    const team = within(section());
    expect(await team.findByText(/The demo workspace cannot join a team/)).toBeTruthy();
    expect(team.getByText(/connect your account under Account above/)).toBeTruthy();
    expect(team.queryByRole('button', { name: 'Join the team' })).toBeNull();
    expect(team.queryByLabelText(/Your member token/)).toBeNull();
    expect(team.queryByRole('button', { name: 'Create the team' })).toBeNull();
    expect(await axeViolations(section())).toEqual([]);
  });

  it('lists members with roles, shows an invite token once, and revokes only after asking', async () => {
    const { transport, section } = settingsWith({
      status: CONNECTED,
      members: [member('m_owner', 'Ada', 'owner'), member('m_eli', 'Eli', 'editor')],
      membersProblem: null,
    });
    const team = within(section());
    await team.findByRole('cell', { name: 'Ada' });
    expect(team.getByRole('row', { name: /Eli editor/ })).toBeTruthy();
    expect(team.getByText('wss://team.example.com#t_0123456789abcdef')).toBeTruthy();
    expect(team.getByText(/does not|published through the team server/)).toBeTruthy();
    // A desktop whose member is not known yet is named by its device id.
    expect(team.getByText('d_99887766')).toBeTruthy();
    expect(await axeViolations(section())).toEqual([]);

    await fireEvent.input(team.getByLabelText('Name'), { target: { value: 'Bea' } });
    await fireEvent.change(team.getByLabelText('Role'), { target: { value: 'viewer' } });
    await fireEvent.click(team.getByRole('button', { name: 'Invite' }));
    const token = await team.findByLabelText('Token');
    expect((token as HTMLInputElement).value).toBe(TOKEN);
    expect(transport.callsOf('inviteTeamMember')).toEqual([{ name: 'Bea', role: 'viewer' }]);
    expect(team.getByRole('button', { name: 'Copy token' })).toBeTruthy();
    expect(team.getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(await axeViolations(section())).toEqual([]);
    await fireEvent.click(team.getByRole('button', { name: 'Done: forget the token' }));
    expect(section().innerHTML).not.toContain(TOKEN);
    await team.findByRole('cell', { name: 'Bea' });

    await fireEvent.click(team.getByRole('button', { name: 'Revoke Eli' }));
    expect(transport.callsOf('revokeTeamMember')).toEqual([]);
    await fireEvent.click(team.getByRole('button', { name: 'Revoke' }));
    expect(transport.callsOf('revokeTeamMember')).toEqual([{ member: 'm_eli' }]);
    await waitFor(() =>
      expect(team.getByRole('row', { name: /Eli editor .*Revoked/ })).toBeTruthy(),
    );
  });

  it('says why the members cannot be listed while offline', async () => {
    const { section } = settingsWith({
      status: { ...CONNECTED, state: 'offline', offlineSince: 0, publishes: false },
      members: null,
      membersProblem: 'The members are listed while the team server can be reached.',
    });
    expect(
      await within(section()).findByText(/listed while the team server can be reached/),
    ).toBeTruthy();
  });
});

describe('presence', () => {
  const elsewhere = (editingPostId: number | null) => ({
    ...CONNECTED,
    present: [
      { device: 'd_99887766', name: 'Bea', editing: editingPostId ? 'uuid' : null, editingPostId },
    ],
  });

  it('tells the core which post the editor has open and when it closes, and shows who else edits it', async () => {
    stubJsdom();
    const { shell, transport } = await shellWith({ setEditingPost: () => ok(null) });
    shell.status = { online: true, paused: null, team: elsewhere(7) } as Status;
    const editor = new PostEditor(shell, { post: post({ id: 7 }) });
    const view = render(PostEditorDialog, {
      props: { editor, bots: [], onsaved: () => undefined, onclose: () => undefined },
    });
    const dialog = screen.getByRole('dialog', { name: 'Edit post' });
    expect(within(dialog).getByRole('status').textContent).toMatch(
      /Bea is editing this post now\.\s*In this workspace now: Bea\./,
    );
    expect(transport.callsOf('setEditingPost')).toEqual([{ postId: 7 }]);
    view.unmount();
    expect(transport.callsOf('setEditingPost')).toEqual([{ postId: 7 }, { postId: null }]);
  });

  it('shows a team post’s history in the editor: who changed what, when, newest first, bounded', async () => {
    stubJsdom();
    const at = (minute: number) => Date.UTC(2026, 10, 27, 9, minute);
    const entries = [
      { who: 'Ada', what: 'created the post', at: at(0) },
      ...Array.from({ length: 24 }, (_, n) => ({
        who: 'Bea',
        what: 'changed the text',
        at: at(n + 1),
      })),
      { who: 'Eli', what: 'changed the time, the bot', at: at(30) },
    ];
    const { shell, transport } = await shellWith({
      setEditingPost: () => ok(null),
      getPostApproval: () => ({ ok: false, error: { kind: 'internal', message: 'not here' } }),
      getPostTeamHistory: () => ok(entries),
    });
    shell.status = { online: true, paused: null, team: CONNECTED } as Status;
    render(PostEditorDialog, {
      props: {
        editor: new PostEditor(shell, { post: post({ id: 7 }) }),
        bots: [],
        onsaved: () => undefined,
        onclose: () => undefined,
      },
    });
    const dialog = screen.getByRole('dialog', { name: 'Edit post' });
    await within(dialog).findByText(/6 earlier changes not shown/);
    expect(transport.callsOf('getPostTeamHistory')).toEqual([{ postId: 7 }]);
    const history = within(dialog).getByText('Who changed this post').closest('details')!;
    const items = within(history).getAllByRole('listitem');
    const lines = items.map((item) => item.textContent!.replace(/\s+/g, ' ').trim());
    expect(lines).toHaveLength(20);
    expect(lines[0]).toMatch(/, Eli changed the time, the bot$/);
    expect(items[0]!.querySelector('time')!.getAttribute('datetime')).toBe(
      new Date(at(30)).toISOString(),
    );
    expect(lines[19]).toMatch(/, Bea changed the text$/);
    expect(history.textContent).not.toContain('created the post');
    expect(history.textContent).toContain('Times are the team server');
  });

  it('tells nothing in a workspace of one', async () => {
    stubJsdom();
    const { shell, transport } = await shellWith();
    shell.status = { online: true, paused: null, team: null } as Status;
    const view = render(PostEditorDialog, {
      props: {
        editor: new PostEditor(shell, { post: post({ id: 7 }) }),
        bots: [],
        onsaved: () => undefined,
        onclose: () => undefined,
      },
    });
    expect(screen.queryByText(/In this workspace now/)).toBeNull();
    view.unmount();
    expect(transport.callsOf('setEditingPost')).toEqual([]);
  });

  it('marks a month chip edited on another desktop, in words for screen readers', async () => {
    stubJsdom();
    const today = Date.now();
    const { shell } = await shellWith({
      getCalendar: () =>
        ok({
          posts: [post({ id: 7, scheduledAt: today, text: 'Fresh rye today' })],
          hidden: {},
          drafts: [],
          freeSlots: [],
          bots: [],
        }),
    });
    shell.status = { online: true, paused: null, team: elsewhere(7) } as Status;
    render(CalendarScreen, { context: shellContext(shell) });
    const chip = await screen.findByRole('button', { name: /Fresh rye today/ });
    expect(chip.textContent).toContain('(Bea is editing it)');
    shell.status = { online: true, paused: null, team: elsewhere(null) } as Status;
    await waitFor(() => expect(chip.textContent).not.toContain('is editing'));
  });
});
