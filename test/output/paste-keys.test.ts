import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pasteAsOneKey } from '../../src/output/paste-keys.js';

/** A terminal's keys through pasteAsOneKey into readline, as a prompt library reads them. */
function reading() {
  const terminal = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const keys = pasteAsOneKey(terminal);
  const rl = createInterface({ input: keys, output: new PassThrough(), terminal: true });
  const pressed: string[] = [];
  const lines: string[] = [];
  keys.on('keypress', (sequence: string) => pressed.push(sequence));
  rl.on('line', (line) => lines.push(line));
  return { terminal, rl, pressed, lines };
}

describe('keys with a paste as one key', () => {
  it('gives a paste of any length as one key, and readline holds it whole', () => {
    const { terminal, rl, pressed } = reading();
    terminal.write('x'.repeat(20_000));
    expect(pressed).toHaveLength(1);
    expect(rl.line).toBe('x'.repeat(20_000));
    rl.close();
  });

  it('keeps line breaks, Ctrl-C and typed keys apart and in order', () => {
    const { terminal, rl, pressed, lines } = reading();
    let interrupted = '';
    rl.on('SIGINT', () => (interrupted = rl.line));
    terminal.write('Rex\rTom');
    expect(lines).toEqual(['Rex']);
    expect(rl.line).toBe('Tom');
    terminal.write('my\u0003');
    expect(interrupted).toBe('Tommy');
    terminal.write('a');
    terminal.write('b');
    expect(pressed.slice(-2)).toEqual(['a', 'b']);
    rl.close();
  });

  it('passes escape sequences (arrows) as readline reads them', () => {
    const { terminal, rl } = reading();
    terminal.write('Rex');
    terminal.write('\u001b[D\u001b[D');
    terminal.write('X');
    expect(rl.line).toBe('RXex');
    rl.close();
  });
});
