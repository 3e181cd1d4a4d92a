// Saves text as a file the browser way (a Blob behind an <a download>): works the same in Electron
// and the web mode, and needs no file-system access from the page.

export function downloadText(fileName: string, text: string, type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click has started the download; the URL is no longer needed once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from parts: safe characters only, so every system accepts it. */
export function fileNameOf(...parts: string[]): string {
  return parts
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

export function stamp(date: Date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '').slice(0, 15);
}
