import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  command,
  option,
  phrase,
  resume,
  type OptionName,
  type Ref,
} from '../../src/core/phrase.js';
import { hintForAgent } from '../../src/mcp/wording.js';
import { errorRecord } from '../../src/mcp/results.js';
import { errorFields } from '../../src/output/report-error.js';
import { commandLineHint, flagOf } from '../../src/output/wording.js';
import { FakeTransport, json } from '../helpers/fake-transport.js';
import { useTestClients } from '../helpers/test-client.js';

const client = useTestClients({ apiKey: 'sk_test_wording_key', baseUrl: 'https://svc.test/v1' });

const OPTIONS: OptionName[] = ['all', 'batchId', 'journal', 'maxItems', 'retryUnknown', 'status'];
/** The options a tool takes as an argument. */
const AGENT_OPTIONS: OptionName[] = ['all', 'batchId', 'maxItems', 'status'];

describe('hints worded by each front end', () => {
  it('the command line words options as flags, commands and the resume command as typed', () => {
    expect(flagOf('ignoreKeyWindow')).toBe('--ignore-key-window');
    const hint = phrase`Give ${option('batchId', 'ci-7')}, see ${command('pets list', { status: 'STATUS' })}; ${resume({ words: 'petstore pets import --resume b1', retryUnknown: true, retryFailed: true })}.`;
    expect(commandLineHint(hint)).toBe(
      'Give --batch-id ci-7, see petstore pets list --status STATUS; petstore pets import --resume b1 --retry-unknown --retry-failed.',
    );
  });

  it("an agent reads the tools' words when a tool does what the hint names", () => {
    const hint = phrase`Use ${command('pets list', { status: 'STATUS' })}, or give ${option('maxItems', 'N')}.`;
    expect(hintForAgent(hint)).toBe('Use list_pets with status STATUS, or give max_items N.');
    expect(
      hintForAgent(
        phrase`Again: ${resume({ words: 'add_pets with batch_id b1', retryUnknown: true })}`,
      ),
    ).toBe('Again: add_pets with batch_id b1');
  });

  it("a hint naming what no tool does is for the person, in the command line's words", () => {
    const hint = phrase`Leave ${option('journal')} out.`;
    expect(hintForAgent(hint)).toBe(
      'For the person who runs petstore (no tool does this): Leave --journal out.',
    );
    // Sending failed records again is the command line's alone.
    expect(hintForAgent(phrase`${resume({ words: 'add_pets', retryFailed: true })}`)).toMatch(
      /^For the person who runs petstore/,
    );
    expect(hintForAgent('Plain text is said as written.')).toBe('Plain text is said as written.');
  });

  it('keeps every piece of text in order and words every reference, whatever the phrase', () => {
    const ref = fc.oneof(
      fc.constantFrom(...OPTIONS).map((name): Ref => option(name)),
      fc
        .constantFrom('pets list', 'journal list', 'pets import' as const)
        .map((name) => command(name)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string(), ref), { maxLength: 6 }),
        fc.string(),
        (pairs, tail) => {
          const strings = Object.assign([...pairs.map(([text]) => text), tail], {
            raw: [...pairs.map(([text]) => text), tail],
          });
          const built = phrase(strings, ...pairs.map(([, r]) => r));
          const line = commandLineHint(built);
          expect(line).not.toContain('[object');
          let from = 0;
          for (const [text, r] of pairs) {
            from = line.indexOf(text, from) + text.length;
            const words =
              'option' in r ? flagOf(r.option) : `petstore ${'command' in r ? r.command : ''}`;
            expect(line.indexOf(words, from)).toBe(from);
            from += words.length;
          }
          expect(line.endsWith(tail)).toBe(true);
          // Every reference a tool has in the tools' words; else the whole hint is the person's.
          const forTools = pairs.every(([, r]) =>
            'option' in r
              ? AGENT_OPTIONS.includes(r.option)
              : 'command' in r && r.command === 'pets list',
          );
          expect(hintForAgent(built).startsWith('For the person who runs petstore')).toBe(
            !forTools,
          );
        },
      ),
    );
  });
});

describe("the client's hints, as each front end says them", () => {
  const refused = async (status: number, body: object) => {
    const transport = new FakeTransport().on('GET', '/v1/pets/7', json(status, body));
    const { instance } = client({ transport });
    return instance.getPet(7).catch((error: unknown) => error);
  };

  it('a pet that does not exist: the command line names pets list, the agent list_pets', async () => {
    const error = await refused(404, { code: 'not_found', message: 'no pet 7' });
    expect(errorFields(error).hint).toBe('List the animals there are with: petstore pets list');
    expect(errorRecord(error).hint).toBe('List the animals there are with: list_pets');
  });

  it('a refused key is the person’s to fix, and says so to the agent', async () => {
    const error = await refused(401, { code: 'unauthorized', message: 'bad key' });
    expect(errorFields(error).hint).toContain('petstore auth status');
    expect(errorRecord(error).hint).toMatch(
      /^For the person who runs petstore \(no tool does this\): Check the API key: petstore auth status/,
    );
  });
});
