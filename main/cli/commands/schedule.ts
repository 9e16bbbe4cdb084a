// `schedule show|set BOT` (Node, CLI): a bot's weekly posting schedule, in the workspace's zone.
import type { Command } from 'commander';
import type { BotSchedule } from '../../../shared/domain';
import { formatInZone } from '../../../shared/time';
import { createOutput } from '../output';
import { globalOptions } from '../options';
import { call } from '../../core/operations';
import { withWorkspace } from '../workspace';

function describe(schedule: BotSchedule): string {
  if (schedule.text === '')
    return `${schedule.botId} has no posting schedule; set one with: schedule set ${schedule.botId} "mon-fri 09:00,17:00"`;
  return [
    `${schedule.botId} posts ${schedule.text} (${schedule.zone})`,
    ...(schedule.nextFree.length > 0
      ? [
          'Next free slots:',
          ...schedule.nextFree.map((at) => `  ${formatInZone(at, schedule.zone)}`),
        ]
      : ['No free slot in the next year']),
  ].join('\n');
}

export function registerSchedule(program: Command): void {
  const schedule = program
    .command('schedule')
    .description(
      "Show or set a bot's weekly posting schedule (the slots `posts add --queue-next` fills)",
    );

  schedule
    .command('show <bot>')
    .description("The bot's schedule and its next free slots, in the workspace's time zone")
    .action(async (botId: string, _options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const shown = await withWorkspace(command, (pressroom) =>
        call(pressroom, 'getSchedule', { botId }),
      );
      output.result(shown, describe(shown));
    });

  schedule
    .command('set <bot> <schedule>')
    .description('Replace the schedule, e.g. "mon-fri 09:00,12:30,17:00; sat 10:00" ("" clears it)')
    .action(async (botId: string, text: string, _options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const saved = await withWorkspace(command, (pressroom) =>
        call(pressroom, 'setSchedule', { botId, schedule: text }),
      );
      output.result(saved, describe(saved));
    });
}
