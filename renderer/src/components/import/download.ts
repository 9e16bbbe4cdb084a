// Offers text as a downloaded file (browser): a Blob URL on a short-lived link, so no component
// needs the file system and the same code works in Electron and in a browser.

/** Starts the download of `text` as `fileName`. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the data once the click is handled; later, the URL only leaks memory.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "calendar.csv" → "calendar-bad-rows.csv": named after the file it came from. */
export function badRowsFileName(fileName: string): string {
  return `${fileName.replace(/\.[^.]*$/, '') || 'import'}-bad-rows.csv`;
}
