// `publish`, `status` and `queue retry|cancel|resend|mark-published` (Node, CLI).
import type { Command } from 'commander';
import { waitForStopSignal } from '../../core/lifecycle';
import type { DrainReport } from '../../queue/publisher';
import { describeFailure } from '../../../shared/failures';
import { CliError, createOutput } from '../output';
import { globalOptions, intOption } from '../options';
import { call } from '../../core/operations';
import { withWorkspace } from '../workspace';

interface PublishOptions {
  untilEmpty: boolean;
  watch: boolean;
}

export function registerQueue(program: Command): void {
  registerPublish(program);
  registerSync(program);
  registerStatus(program);
  registerQueueItems(program);
}

/** `publish`: send what is due, until empty, or as a daemon. */
function registerPublish(program: Command): void {
  program
    .command('publish')
    .description('Send everything due now, then exit (or keep going with --until-empty or --watch)')
    .option('--until-empty', 'wait for future due times until nothing is queued or retrying', false)
    .option('--watch', 'run as a daemon until stopped', false)
    .action(async (options: PublishOptions, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const started = Date.now();
      const progress = (report: DrainReport) =>
        output.progress(
          `published ${report.published}, failed ${report.failed}, missed ${report.missed}`,
        );
      // What happened while watching, told by the queue's own events.
      const watched: DrainReport = { published: 0, failed: 0, missed: 0, retrying: 0 };
      const result = await withWorkspace(
        command,
        async (pressroom) => {
          let report: DrainReport;
          if (options.watch) {
            output.progress('Publishing as posts come due; stop with Ctrl+C.');
            await pressroom.queue.watch(waitForStopSignal());
            report = watched;
          } else if (options.untilEmpty) {
            report = await pressroom.queue.publishUntilEmpty(progress);
          } else {
            report = await call(pressroom, 'publishDue');
            progress(report);
          }
          const status = call(pressroom, 'status');
          if (status.paused) output.progress(`Paused: ${status.paused}`);
          return {
            published: report.published,
            failed: report.failed + report.missed,
            requests: status.requests,
            rate_limited: status.rateLimited,
            duration_ms: Date.now() - started,
          };
        },
        {
          onEvent: (event) => {
            if (event.type === 'done') watched.published++;
            if (event.type === 'missed') watched.missed++;
            if (event.type === 'failed') {
              watched.failed++;
              // Plain words first; the platform's own text after, for a log or a support ticket.
              output.progress(
                `failed #${event.item.id}: ${describeFailure({ kind: event.item.kind, reason: event.reason, fieldErrors: event.fieldErrors })} (${event.reason})`,
              );
            }
            if (options.watch && event.type === 'done') progress(watched);
          },
        },
      );
      output.result(
        result,
        `Published ${result.published}, failed ${result.failed}; ${result.requests} requests (${result.rate_limited} rate-limited) in ${result.duration_ms} ms`,
      );
    });
}

/** `sync`: every list of the platform into the workspace. */
function registerSync(program: Command): void {
  program
    .command('sync')
    .description(
      'Fetch every page of bots, posts, products, orders and subscribers into the workspace',
    )
    .action(async (_options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const report = await withWorkspace(command, (pressroom) =>
        pressroom.queue.sync(({ resource, fetched }) => output.progress(`${resource}: ${fetched}`)),
      );
      const failed = Object.entries(report).filter(([, value]) => typeof value !== 'number');
      output.result(
        report,
        Object.entries(report)
          .map(
            ([resource, value]) =>
              `${resource}: ${
                typeof value === 'number'
                  ? value
                  : 'error' in value
                    ? `failed (${value.error})`
                    : `${value.fetched}, none deleted (${value.notPruned})`
              }`,
          )
          .join('\n'),
      );
      if (failed.length > 0) process.exitCode = 1;
    });
}

/** `status`: counts and the rate-limit state. */
function registerStatus(program: Command): void {
  program
    .command('status')
    .description('Queue counts by state, posts and products by status, and the rate-limit state')
    .action(async (_options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const status = await withWorkspace(command, (pressroom) => call(pressroom, 'status'));
      const line = (counts: Record<string, number>) =>
        Object.entries(counts)
          .map(([state, n]) => `${state} ${n}`)
          .join(', ');
      output.result(
        status,
        [
          `queue:    ${line(status.outbox)}`,
          `posts:    ${line(status.posts)}`,
          `products: ${line(status.products)}`,
          ...Object.entries(status.sync)
            .filter(([, state]) => state.problem !== null)
            .map(([resource, state]) => `sync ${resource}: ${state.problem}`),
        ].join('\n'),
      );
    });
}

/** `queue retry|cancel|resend|mark-published`: one item at a time. */
function registerQueueItems(program: Command): void {
  const queue = program
    .command('queue')
    .description('Retry or cancel queue items, or settle one whose outcome is unknown');
  for (const [verb, description] of [
    ['retry', 'Send a failed or cancelled item again, now'],
    ['cancel', 'Stop an item that has not been sent; its post or product goes back to draft'],
  ] as const) {
    queue
      .command(`${verb} <id>`)
      .description(description)
      .action(async (id: string, _options: unknown, command: Command) => {
        const output = createOutput((await globalOptions(command)).json);
        const itemId = intOption('id', 1, Number.MAX_SAFE_INTEGER)(id);
        const item = await withWorkspace(command, (pressroom) =>
          verb === 'retry'
            ? call(pressroom, 'retryItem', { id: itemId })
            : call(pressroom, 'cancelItem', { id: itemId }),
        );
        output.result(item, `Queue item ${item.id} is now ${item.state}`);
      });
  }
  // When a lookup could not tell whether an item went out, it waits for the user's word.
  queue
    .command('resend <id>')
    .description(
      'Send an item whose outcome is unknown again, without looking it up first: you checked the platform and it is not there',
    )
    .option('--confirm-not-sent', 'you looked on the platform and the post is not there', false)
    .action(async (id: string, options: { confirmNotSent: boolean }, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const itemId = intOption('id', 1, Number.MAX_SAFE_INTEGER)(id);
      if (!options.confirmNotSent)
        throw new CliError(
          'Look on the platform first; if the post is not there, run this again with --confirm-not-sent',
          2,
        );
      const item = await withWorkspace(command, (pressroom) =>
        call(pressroom, 'resendItem', { id: itemId }),
      );
      output.result(item, `Queue item ${item.id} is now ${item.state}; it goes without a lookup`);
    });
  queue
    .command('mark-published <id>')
    .description(
      'Take an item whose outcome is unknown as published: you checked the platform and it is there',
    )
    .option('--remote-id <id>', 'the platform’s id of the post, to link it')
    .action(async (id: string, options: { remoteId?: string }, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const itemId = intOption('id', 1, Number.MAX_SAFE_INTEGER)(id);
      const item = await withWorkspace(command, (pressroom) =>
        call(pressroom, 'markItemPublished', {
          id: itemId,
          ...(options.remoteId === undefined ? {} : { remoteId: options.remoteId }),
        }),
      );
      output.result(item, `Queue item ${item.id} is now ${item.state}`);
    });
}
