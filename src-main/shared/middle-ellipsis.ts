// Ids in narrow columns (the capture list, the sandbox's books) and on a terminal's line: the desk's
// own ids differ at the end (wd-check-<run>-<case>), platform ids at the start, so a cut keeps both
// ends and drops the middle. Columns are monospace, so what fits is a count of characters.

/** The text in at most `room` characters: as is when it fits, else its start, "…", and an end twice as long. */
export function middleEllipsis(text: string, room: number): string {
  const chars = [...text];
  if (chars.length <= room) return text;
  if (room <= 1) return '…';
  const kept = room - 1;
  const head = Math.floor(kept / 3);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (kept - head)).join('')}`;
}
