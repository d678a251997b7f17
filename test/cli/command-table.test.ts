import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { commandsToLoad, TOP_COMMANDS } from '../../src/cli/command-table.js';
import { fakeIO } from '../helpers/fake-io.js';

const names = (argv: string[]) => commandsToLoad(argv).map((command) => command.name);
const run = () => Promise.resolve();

describe('the lazy command tree', () => {
  it('says in the program help what each loaded command says: name, arguments, [options], summary', async () => {
    const stubs = await buildProgram(fakeIO(), run, []);
    const loaded = await buildProgram(fakeIO(), run, 'all');
    expect(stubs.helpInformation()).toBe(loaded.helpInformation());
    // And every top-level command of the loaded program is in the table.
    expect(loaded.commands.map((command) => command.name()).sort()).toEqual(
      [...TOP_COMMANDS.map((command) => command.name), 'version'].sort(),
    );
  });

  it('loads the command the line names, past global options and their values', () => {
    expect(names(['pets', 'list'])).toEqual(['pets']);
    expect(names(['--profile', 'staging', 'pets', 'list'])).toEqual(['pets']);
    expect(names(['--profile=staging', '-qo', 'json', 'smoke'])).toEqual(['smoke']);
    expect(names(['-ojson', 'api', '/pets'])).toEqual(['api']);
    expect(names(['help', '--json', 'profile'])).toEqual(['profile']);
    expect(names(['--', 'doctor'])).toEqual(['doctor']);
    expect(names(['completion', 'bash'])).toHaveLength(TOP_COMMANDS.length);
    expect(names([])).toEqual([]);
    expect(names(['pet', 'list'])).toEqual([]);
    expect(names(['--profile'])).toEqual([]);
  });
});
