import {
  wordHint,
  type CommandName,
  type Hint,
  type OptionName,
  type Wording,
} from '../core/phrase.js';
import { commandLineHint } from '../output/wording.js';
import type { ToolName } from './tool-names.js';

/** The arguments of the tools, by the option of the operation each one is. */
const ARGUMENTS: Partial<Record<OptionName, string>> = {
  all: 'all',
  batchId: 'batch_id',
  // A tool's writes are keyed by their request_id: a new one is a new key.
  idempotencyKey: 'request_id',
  maxItems: 'max_items',
  status: 'status',
};

/** The tools, by the command that does the same. */
const TOOLS: Partial<Record<CommandName, ToolName>> = {
  'message send': 'send_message',
  'pets add': 'add_pet',
  'pets list': 'list_pets',
};

/** The agent's words: the tools and their arguments; nothing for what only a person can do. */
const AGENT_WORDING: Wording = {
  option(name, value) {
    const argument = ARGUMENTS[name];
    if (argument === undefined) return undefined;
    return value === undefined ? argument : `${argument} ${value}`;
  },
  command(name, withOptions) {
    const tool = TOOLS[name];
    if (tool === undefined) return undefined;
    const args = Object.entries(withOptions).map(([option, value]) =>
      AGENT_WORDING.option(option as OptionName, value),
    );
    if (args.includes(undefined)) return undefined;
    return args.length === 0 ? tool : `${tool} with ${args.join(', ')}`;
  },
  // A batch is completed by calling add_pets again, which sends the unknown records again on
  // its own; it has no way to send failed records again or to print what was created.
  resume: (ref) => (ref.retryFailed || ref.printAll ? undefined : ref.words),
};

/**
 * A hint as an agent should read it: in the tools' words when it names only what a tool does;
 * else for the person who runs petstore, in the command line's words.
 */
export function hintForAgent(hint: Hint): string {
  return (
    wordHint(hint, AGENT_WORDING) ??
    `For the person who runs petstore (no tool does this): ${commandLineHint(hint)}`
  );
}
