import { Readable } from 'node:stream';

/**
 * The keys of a terminal as a question reads them, with a run of plain text that arrives at
 * once (a paste) given as one key. Node's readline makes a key of every character, and the
 * prompt library draws the whole answer again after each: a paste of 8,000 characters took
 * seconds and a Ctrl-C after 20,000 waited a minute behind the drawing. As one key, readline
 * inserts the text in one go and the answer is drawn once; line breaks, Ctrl-C and the other
 * controls in it stay keys of their own, in order. Escape sequences (arrows) pass as they are.
 */

const isControl = (code: number) => code < 0x20 || code === 0x7f;

/** The text cut into runs of controls and runs of the rest, in order. */
function runs(text: string): { text: string; controls: boolean }[] {
  const found: { text: string; controls: boolean }[] = [];
  for (let start = 0; start < text.length;) {
    const controls = isControl(text.charCodeAt(start));
    let end = start + 1;
    while (end < text.length && isControl(text.charCodeAt(end)) === controls) end++;
    found.push({ text: text.slice(start, end), controls });
    start = end;
  }
  return found;
}

interface Terminal extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

export function pasteAsOneKey(terminal: Terminal): NodeJS.ReadableStream & { detach(): void } {
  const keys = new Readable({ read() {} }) as Readable & Terminal;
  // As the terminal is: the prompt library treats keys typed before a question on a real
  // terminal as stale, and a test's keys given in advance as the answers.
  keys.isTTY = terminal.isTTY === true;
  keys.setRawMode = (mode: boolean) => terminal.setRawMode?.(mode);
  // readline pauses and resumes what it reads: the terminal itself.
  keys.pause = () => (terminal.pause(), keys);
  keys.resume = () => (terminal.resume(), keys);
  const give = (chunk: Buffer | string) => {
    const text = String(chunk);
    if (text.length < 2 || text.includes('\u001b')) {
      keys.emit('data', chunk);
      return;
    }
    for (const run of runs(text)) {
      if (run.controls) keys.emit('data', run.text);
      else keys.emit('keypress', run.text, { sequence: run.text, ctrl: false, meta: false });
    }
  };
  const end = () => keys.emit('end');
  // Read from the terminal once readline listens (it does so as the question is made): until
  // then what is typed waits in the terminal's stream, in order, before its end.
  const attach = (event: string) => {
    if (event !== 'data') return;
    keys.off('newListener', attach);
    terminal.on('data', give);
    terminal.once('end', end);
  };
  keys.on('newListener', attach);
  return Object.assign(keys, {
    /** Stops forwarding: the terminal's listeners are taken off. */
    detach: () => {
      keys.off('newListener', attach);
      terminal.off('data', give);
      terminal.off('end', end);
    },
  });
}
