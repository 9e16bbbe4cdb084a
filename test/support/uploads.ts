// Files sent to a core as the page sends them (Node): kept privately, named by the id that
// importUpload and previewUpload take.
import type { Workspace } from '../../main/core/workspace';
import { call } from '../../main/core/operations';

export async function uploaded(
  pressroom: Workspace,
  fileName: string,
  content: string | Buffer,
): Promise<string> {
  return (await pressroom.imports.receiveUpload(fileName, [Buffer.from(content)])).upload;
}

/** The bad rows an import wrote (ImportResult.badRowsFile), as CSV text; '' when none. */
export async function badRowsOf(
  pressroom: Workspace,
  result: { badRowsFile: string | null } | null | undefined,
): Promise<string> {
  if (!result?.badRowsFile) return '';
  return (await call(pressroom, 'getBadRows', { id: result.badRowsFile })).csv;
}
