// C0 controls (except tab and newline, handled per use), DEL and C1 controls. Escape sequences
// start with ESC (C0) or CSI (C1), so removing these makes service text inert on a terminal.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LINE_BREAKS = /[\t\n]/g;

/** Text for one table cell or one message line: no control characters, no line breaks. */
export function sanitizeLine(text: string): string {
  return text.replace(CONTROL, '').replace(LINE_BREAKS, ' ');
}

/** A short, safe excerpt of an unexpected response body. */
export function snippet(text: string, max = 120): string {
  const flat = sanitizeLine(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
