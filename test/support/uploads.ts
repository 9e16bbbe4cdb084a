// Files sent to a core as the page sends them (Node): kept privately, named by the id that
// importUpload and previewUpload take.
import type { Pressroom } from '../../main/core/pressroom';
import { call } from '../../main/core/service';

export async function uploaded(
  pressroom: Pressroom,
  fileName: string,
  content: string | Buffer,
): Promise<string> {
  return (await pressroom.imports.receiveUpload(fileName, [Buffer.from(content)])).upload;
}

/** The bad rows an import wrote (ImportResult.badRowsFile), as CSV text; '' when none. */
export async function badRowsOf(
  pressroom: Pressroom,
  result: { badRowsFile: string | null } | null | undefined,
): Promise<string> {
  if (!result?.badRowsFile) return '';
  return (await call(pressroom, 'getBadRows', { id: result.badRowsFile })).csv;
}
