// Export of every post or product as CSV (browser), in the columns import reads.
import type { ImportKind } from './import-view';
import type { Shell } from './shell.svelte';

export class CsvExport {
  exporting = $state(false);

  constructor(private readonly shell: Shell) {}

  /** The file's name and text, or undefined (with a notice) when the core could not export. */
  async run(
    kind: ImportKind,
    bom: boolean,
  ): Promise<{ fileName: string; csv: string } | undefined> {
    this.exporting = true;
    const exported = await this.shell.attempt(
      this.shell.api.exportText({ kind, bom }),
      `Could not export the ${kind}`,
    );
    this.exporting = false;
    if (exported) this.shell.notices.show('success', `Exported ${exported.rows} ${kind}`);
    return exported;
  }
}
