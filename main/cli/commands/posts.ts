// `posts add` and `posts list` (Node, CLI); the review commands are in posts-review.ts.
import { Option } from 'commander';
import type { Command } from 'commander';
import type { LocalPost } from '../../../shared/domain';
import { formatInZone } from '../../../shared/time';
import { CliError, createOutput } from '../output';
import { globalOptions } from '../options';
import { call } from '../../core/operations';
import { withWorkspace } from '../workspace';
import type { ApprovalState } from '../../../shared/team';
import { listInState, registerReview, stateOption } from './posts-review';

interface AddOptions {
  text: string;
  at?: string;
  zone?: string;
  bot?: string;
  media?: string[];
  mode: 'draft' | 'schedule' | 'publish_now' | 'hand_off';
  queueNext: boolean;
  allowDuplicate: boolean;
}

function describe(post: LocalPost): string {
  const when =
    post.scheduledAt === null ? 'no time' : formatInZone(post.scheduledAt, post.zone ?? 'UTC');
  return `#${post.id} ${post.status.padEnd(10)} ${when}  ${post.botId ?? '(no bot)'}  ${post.text.replace(/\s+/g, ' ').slice(0, 60)}`;
}

export function registerPosts(program: Command): void {
  const posts = program.command('posts').description('Draft, schedule and list posts');

  posts
    .command('add')
    .description(
      'Add a post: scheduled at --at (the default), or a draft, published now, or handed off',
    )
    .requiredOption('--text <text>', 'the post text')
    .option(
      '--at <time>',
      'when: ISO 8601, e.g. 2026-11-23T09:00 (a wall time in --zone) or 2026-11-23T08:00Z',
    )
    .option(
      '--zone <zone>',
      'IANA time zone of --at and of the calendar (default: this computer’s)',
    )
    .option('--bot <id>', 'the bot that publishes it')
    .option('--media <url...>', 'pictures: http(s) URLs, or references printed by `media add`')
    .addOption(
      new Option('--mode <mode>', 'draft | schedule | publish_now | hand_off')
        .choices(['draft', 'schedule', 'publish_now', 'hand_off'])
        .default('schedule'),
    )
    .option(
      '--queue-next',
      "schedule it in the bot's next free posting slot (see `schedule show`)",
      false,
    )
    .option(
      '--allow-duplicate',
      'schedule it even if another post of the bot says the same within the duplicate window',
      false,
    )
    .action(async (options: AddOptions, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      if (
        options.queueNext &&
        (options.at !== undefined || options.zone !== undefined || options.mode !== 'schedule')
      )
        throw new CliError(
          "--queue-next takes the bot's next free slot itself; leave out --at, --zone and --mode",
          2,
        );
      const common = {
        text: options.text,
        allowDuplicate: options.allowDuplicate,
        ...(options.bot !== undefined ? { botId: options.bot } : {}),
        ...(options.media ? { mediaUrls: options.media } : {}),
      };
      const post = await withWorkspace(command, (pressroom) =>
        options.queueNext
          ? call(pressroom, 'addToQueue', common)
          : call(pressroom, 'addPost', {
              ...common,
              mode:
                options.mode === 'schedule' && options.at === undefined ? 'draft' : options.mode,
              ...(options.at !== undefined ? { at: options.at } : {}),
              ...(options.zone !== undefined ? { zone: options.zone } : {}),
            }),
      );
      output.result(post, `Added ${describe(post)}`);
    });

  posts
    .command('list')
    .description('List the posts of this workspace, by time')
    .addOption(stateOption)
    .action(async (options: { state?: ApprovalState }, command: Command) => {
      if (options.state) return listInState(command, options.state);
      const output = createOutput((await globalOptions(command)).json);
      const list = await withWorkspace(command, (pressroom) => call(pressroom, 'listPosts'));
      output.result(
        list,
        list.length === 0
          ? 'No posts yet: add one with `posts add --text …`'
          : list.map(describe).join('\n'),
      );
    });
  registerReview(posts);
}
