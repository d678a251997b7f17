// The project's layers, enforced by ESLint: which folders of src/ a file may import from, and
// which packages. Unlike the built-in no-restricted-imports it also checks dynamic import(),
// which is how the heavy layers are reached. See README, "Development".
import { dirname, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '../../src');

/**
 * Zones by path below src/ (the longest matching prefix wins). `may` lists the other zones a
 * file may import from (its own zone is always allowed); `packages` the npm packages.
 */
export const LAYERS = {
  core: { may: [], packages: [] },
  api: { may: ['core'], packages: ['undici'] },
  sandbox: { may: ['core'], packages: [] },
  config: { may: ['core'], packages: ['conf', '@napi-rs/keyring'] },
  output: {
    may: ['core'],
    packages: [
      'chalk',
      'cli-table3',
      '@jmespath-community/jmespath',
      '@inquirer/confirm',
      '@inquirer/input',
      '@inquirer/select',
    ],
  },
  // The bulk engine: journal, lock, records, plan, runner. Its ports are interfaces, so it
  // reaches no client, config, context or output: front ends word and show what it reports.
  bulk: { may: ['core'], packages: ['csv-parse'] },
  // What each front end (the command line, prompts, the agent interface) does, over narrow
  // dependencies: no commander, terminal, prompt or output format, so any front end can call it.
  operations: { may: ['core', 'api', 'bulk', 'history'], packages: [] },
  // The agent interface (petstore mcp): an MCP server over the operations, loaded only by its
  // command.
  mcp: {
    may: ['core', 'api', 'bulk', 'output', 'config/schema.ts', 'history/entry.ts', 'operations'],
    packages: ['@modelcontextprotocol/server', 'zod'],
  },
  // The target resolution starts the embedded service, through its launcher only.
  context: {
    may: ['core', 'api', 'config', 'output', 'history', 'sandbox/launcher.ts'],
    packages: [],
  },
  // The history of writes: its store (SQLite) and the entries made from the client's records.
  history: { may: ['core', 'api/write-record.ts'], packages: [] },
  // What several nouns' verbs share (profile views, config changes) lives here, below them.
  cmdutil: {
    may: ['core', 'context', 'config', 'output', 'operations'],
    packages: ['commander', '@commander-js/extra-typings'],
  },
  commands: {
    may: ['core', 'api', 'config', 'output', 'context', 'cmdutil', 'bulk', 'operations', 'history'],
    packages: ['commander', '@commander-js/extra-typings'],
  },
  // petstore mcp starts the agent interface.
  'commands/mcp': {
    may: ['core', 'api', 'config', 'output', 'context', 'cmdutil', 'operations', 'mcp'],
    packages: ['commander', '@commander-js/extra-typings'],
  },
  // The sandbox's own verbs run the service.
  'commands/sandbox': {
    may: [
      'core',
      'api',
      'config',
      'output',
      'context',
      'cmdutil',
      'commands',
      'sandbox',
      'operations',
    ],
    packages: ['commander', '@commander-js/extra-typings'],
  },
  // The help topics and reference tables: texts the program, the man page and the README show.
  help: { may: ['core', 'context', 'output'], packages: [] },
  cli: {
    may: ['core', 'context', 'cmdutil', 'commands', 'help'],
    packages: ['commander', '@commander-js/extra-typings'],
  },
  // The entry answers --version alone, then loads the program runner.
  // main.ts answers --version, piped help, completion's profile names and the keyring helper
  // (a child process of the tool itself) before loading the program.
  'main.ts': {
    may: [
      'core',
      'run-main.ts',
      'cli/argv.ts',
      'config/profile-names.ts',
      'config/keyring-helper.ts',
    ],
    packages: [],
  },
  'run-main.ts': {
    may: ['core', 'api', 'context', 'output', 'cmdutil', 'cli'],
    packages: ['commander', '@commander-js/extra-typings'],
  },
  types: { may: [], packages: [] },
};

/** The zone a path below src/ belongs to: the longest prefix of it in LAYERS. */
export function zoneOf(pathInSrc) {
  const parts = pathInSrc.split('/');
  for (let length = parts.length; length > 0; length--) {
    const prefix = parts.slice(0, length).join('/');
    if (Object.hasOwn(LAYERS, prefix)) return prefix;
  }
  return undefined;
}

/** The noun folder of a path below commands/ ("pets" for commands/pets/add.ts), if any. */
function nounOf(pathInSrc) {
  const parts = pathInSrc.split('/');
  return parts[0] === 'commands' && parts.length > 2 ? parts[1] : undefined;
}

function inZone(pathInSrc, zone) {
  return pathInSrc === zone || pathInSrc.startsWith(`${zone}/`);
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function check(context, node, specifier) {
  const file = relative(SRC, context.filename);
  if (file.startsWith('..')) return;
  const zone = zoneOf(file.replaceAll('\\', '/'));
  if (zone === undefined) {
    context.report({ node, message: `${file} is in no layer: add its folder to LAYERS` });
    return;
  }
  const rules = LAYERS[zone];
  if (specifier.startsWith('node:')) return;
  if (!specifier.startsWith('.')) {
    const name = packageName(specifier);
    if (!rules.packages.includes(name)) {
      context.report({ node, message: `the ${zone} layer may not import the package "${name}"` });
    }
    return;
  }
  const target = relative(SRC, resolve(dirname(context.filename), specifier))
    .replaceAll('\\', '/')
    .replace(/\.js$/, '.ts');
  if (target.startsWith('..')) {
    context.report({ node, message: `src/ may not import from outside it (${specifier})` });
    return;
  }
  // One noun's verbs never import another noun's: what both need moves below them.
  const noun = nounOf(file);
  if (noun !== undefined && target.startsWith('commands/') && nounOf(target) !== noun) {
    context.report({
      node,
      message: `commands/${noun}/ may not import ${target}: one noun's folder never imports another's; move what both need to cmdutil/`,
    });
    return;
  }
  if (inZone(target, zone)) return;
  if (rules.may.some((allowed) => inZone(target, allowed))) return;
  context.report({
    node,
    message: `the ${zone} layer may not import ${target} (allowed: ${[zone, ...rules.may].join(', ')})`,
  });
}

export const layersPlugin = {
  rules: {
    'allowed-imports': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        /** The path a module specifier spells, or undefined when it is computed. */
        const pathOf = (specifier) => {
          if (specifier?.type === 'Literal' && typeof specifier.value === 'string') {
            return specifier.value;
          }
          // `import(\`../x.js\`)`: a template with nothing in it is a path like any other.
          if (specifier?.type === 'TemplateLiteral' && specifier.expressions.length === 0) {
            return specifier.quasis[0].value.cooked;
          }
          return undefined;
        };
        const source = (node) => {
          if (!node.source) return;
          const path = pathOf(node.source);
          if (path !== undefined) check(context, node, path);
          else {
            // A path computed at run time cannot be checked: none is allowed in src/.
            context.report({
              node,
              message:
                'import() with a computed path cannot be checked by the layer rule; spell the path',
            });
          }
        };
        return {
          ImportDeclaration: source,
          ExportNamedDeclaration: source,
          ExportAllDeclaration: source,
          ImportExpression: source,
          // `type T = import('../x.js').T`: a type from another layer is an import too.
          TSImportType(node) {
            const argument =
              node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument;
            const path = pathOf(argument) ?? pathOf(node.source);
            if (path !== undefined) check(context, node, path);
          },
          // require() through createRequire reaches any file without an import to check.
          'CallExpression[callee.name="createRequire"]'(node) {
            context.report({
              node,
              message: 'createRequire is not used in src/: import, so the layer rule sees it',
            });
          },
        };
      },
    },
  },
};
