// `media add FILE…` and `media host` (Node, CLI): pictures uploaded into the workspace, and the
// folder they are published from, as the platform takes pictures only by web address.
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError, createOutput } from '../output';
import { globalOptions } from '../options';
import { call } from '../../core/operations';
import { withWorkspace } from '../workspace';

/** A picture file's bytes, or the sentence saying why it cannot be read. */
async function readPicture(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT' ? `${path} does not exist` : `${path} cannot be read (${code ?? 'error'})`,
      2,
    );
  }
}

interface HostOptions {
  folder?: string;
  url?: string;
  clear?: boolean;
}

export function registerMedia(program: Command): void {
  const media = program
    .command('media')
    .description('Pictures for posts: upload them, and set where they are published from');

  media
    .command('add <files...>')
    .description(
      'Upload pictures (PNG, JPG, GIF or WebP, up to 10 MiB each); prints the reference to give `posts add --media`',
    )
    .action(async (files: string[], _options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const added = await withWorkspace(command, async (pressroom) => {
        const pictures = [];
        for (const file of files)
          pictures.push(pressroom.media.add(basename(file), await readPicture(file)));
        return pictures;
      });
      output.result(
        added,
        added.map((picture) => `${picture.url}  ${picture.fileName ?? ''}`).join('\n'),
      );
    });

  media
    .command('host')
    .description(
      'Show or set the media host: a folder your web space serves at a public URL; uploaded pictures are copied there when their post is published',
    )
    .option('--folder <dir>', 'the folder to copy pictures into')
    .option('--url <url>', 'the public address that folder is served at')
    .option('--clear', 'forget the media host')
    .action(async (options: HostOptions, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const { folder, url, clear } = options;
      if (
        clear
          ? folder !== undefined || url !== undefined
          : (folder === undefined) !== (url === undefined)
      )
        throw new CliError(
          'Give both --folder and --url to set the media host, --clear to forget it, or neither to show it',
          2,
        );
      const host = await withWorkspace(command, (pressroom) => {
        if (clear) call(pressroom, 'setMediaHost', { host: null });
        else if (folder !== undefined && url !== undefined)
          call(pressroom, 'setMediaHost', {
            host: { folder: resolve(folder), publicBaseUrl: url },
          });
        return call(pressroom, 'getMediaHost');
      });
      output.result(
        { host },
        host
          ? `Uploaded pictures are copied into ${host.folder} and published as ${host.publicBaseUrl}<name>`
          : 'No media host: posts with uploaded pictures cannot be published until one is set (media host --folder DIR --url URL)',
      );
    });
}
