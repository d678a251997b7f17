import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../cmdutil/run-verb.js';
import { GLOBAL_OPTIONS } from '../context/global-options.js';

type Register = (program: Command, runVerb: RunVerb) => void;

/**
 * The program's top-level commands, each loaded only when the command line names it: the
 * others are stubs that say their name, arguments and summary (all the program's own help and
 * "did you mean" need), so a run builds and loads only the command it runs. A test checks that
 * each stub's line of help is the loaded command's.
 */
export interface TopCommand {
  name: string;
  summary: string;
  /** Its arguments, as its help names them. */
  args?: readonly string[];
  /** It has options of its own (its help line says [options]). */
  options?: boolean;
  load(): Promise<Register>;
}

export const TOP_COMMANDS: readonly TopCommand[] = [
  {
    name: 'pets',
    summary: 'List, add and look up animals',
    load: async () => (await import('../commands/pets/index.js')).registerPets,
  },
  {
    name: 'journal',
    summary: 'List and prune the journals bulk runs keep (pets add --file)',
    load: async () => (await import('../commands/journal/index.js')).registerJournal,
  },
  {
    name: 'message',
    summary: 'Quickstart messages',
    load: async () => (await import('../commands/message/index.js')).registerMessage,
  },
  {
    name: 'profile',
    summary: 'Manage profiles: production, staging, sandbox and your own',
    load: async () => (await import('../commands/profile/index.js')).registerProfile,
  },
  {
    name: 'auth',
    summary: 'Store, inspect and remove API keys',
    load: async () => (await import('../commands/auth/index.js')).registerAuth,
  },
  {
    name: 'sandbox',
    summary: 'The embedded local Animal Store service',
    load: async () => (await import('../commands/sandbox/index.js')).registerSandbox,
  },
  {
    name: 'smoke',
    summary: 'Check that a deployment answers as the interface says (exit 8 on failure)',
    options: true,
    load: async () => (await import('../commands/smoke/smoke.js')).registerSmoke,
  },
  {
    name: 'api',
    summary: 'Send any request the service offers, with the profile’s key and safety',
    options: true,
    args: ['<path>'],
    load: async () => (await import('../commands/api/api.js')).registerApi,
  },
  {
    name: 'doctor',
    summary: 'Check everything between you and a working call, and say how to fix it',
    load: async () => (await import('../commands/doctor/doctor.js')).registerDoctor,
  },
  {
    name: 'mcp',
    summary: 'Serve the store to an AI agent: an MCP server over stdio, for one profile',
    options: true,
    load: async () => (await import('../commands/mcp/mcp.js')).registerMcp,
  },
  {
    name: 'completion',
    summary: 'Print a shell completion script: bash, zsh or fish',
    args: ['<SHELL>'],
    load: async () => (await import('../commands/completion/completion.js')).registerCompletion,
  },
];

/** The short and long global flags that take a value (the next word, unless joined by =). */
const VALUE_FLAGS = new Set(
  GLOBAL_OPTIONS.filter((option) => option.flags.includes('<')).flatMap((option) =>
    option.flags.split(/[ ,]+/).filter((part) => part.startsWith('-')),
  ),
);

/** The first word of the command line that is no global option or its value. */
function firstWord(argv: readonly string[], from = 0): number {
  for (let i = from; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!word.startsWith('-') || word === '-') return i;
    if (word.startsWith('--')) {
      if (!word.includes('=') && VALUE_FLAGS.has(word)) i++;
      continue;
    }
    // Short flags run together (-qo json): a value flag last takes the next word.
    const letters = word.slice(1);
    const valueAt = letters.split('').findIndex((letter) => VALUE_FLAGS.has(`-${letter}`));
    if (valueAt === letters.length - 1) i++;
  }
  return -1;
}

/**
 * The top-level commands the command line needs loaded: the one it names (`help NAME` names
 * NAME), or every one for `completion` (its scripts cover them all); none when it names none.
 */
export function commandsToLoad(argv: readonly string[]): readonly TopCommand[] {
  let at = firstWord(argv);
  if (at >= 0 && argv[at] === 'help') at = firstWord(argv, at + 1);
  const named = at < 0 ? undefined : TOP_COMMANDS.find((command) => command.name === argv[at]);
  if (named?.name === 'completion') return TOP_COMMANDS;
  return named === undefined ? [] : [named];
}
