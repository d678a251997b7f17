import { UsageError } from '../core/errors.js';
import { checkLexically, checkTree, invalid, type FunctionTable } from './query-check.js';

/** A compiled --query: the JSON value a command would print, and what it prints instead. */
export type Query = (value: unknown) => unknown;

/** --query could not be applied to a value the command made (the expression's fault). */
export class QueryFailedError extends UsageError {}

type Library = typeof import('@jmespath-community/jmespath');

/** The parts of the library's runtime this module reaches, which its typings do not show. */
interface Runtime {
  _functionTable: Record<string, { _signature: unknown[] } | undefined>;
  validateArity(name: string, args: unknown[], signature: unknown[]): void;
  getTypeName(value: unknown): number | undefined;
}

const TYPE_NUMBER = 0;
let library: Promise<Library> | undefined;

/**
 * The library, loaded once, taught int64: a bigint (an integer past 2^53, kept exact) is a
 * number to its type checks, and type(), to_string() and to_number() take it exactly. Other
 * arithmetic on one fails with a message that says why (see QueryFailedError).
 */
function loadLibrary(): Promise<Library> {
  library ??= import('@jmespath-community/jmespath').then((loaded) => {
    const runtime = loaded.TreeInterpreter.runtime as unknown as Runtime;
    const typeName = runtime.getTypeName.bind(runtime);
    runtime.getTypeName = (value) => (typeof value === 'bigint' ? TYPE_NUMBER : typeName(value));
    const exact = (name: string, whenBig: (value: bigint) => unknown) => {
      const builtIn = runtime._functionTable[name] as unknown as {
        _func: (args: unknown[]) => unknown;
      };
      const original = builtIn._func;
      builtIn._func = (args) =>
        typeof args[0] === 'bigint' ? whenBig(args[0]) : original.call(runtime, args);
    };
    exact('type', () => 'number');
    exact('to_string', (value) => value.toString());
    exact('to_number', (value) => value);
    return loaded;
  });
  return library;
}

function functionTable(runtime: Runtime): FunctionTable {
  return {
    exists: (name) => runtime._functionTable[name] !== undefined,
    checkArity: (name, count) =>
      runtime.validateArity(name, new Array(count), runtime._functionTable[name]!._signature),
  };
}

/** Errors JavaScript raises when a function meets a bigint: said in the user's terms. */
const BIGINT_TROUBLE = /BigInt|localeCompare|received undefined/;

/**
 * Compiles a JMESPath expression (the aws and az convention), with the community's TypeScript
 * implementation of the spec, loaded only when a run asks for it. Every mistake in the
 * expression itself (syntax, an unclosed literal, an unknown function, a wrong number of
 * arguments, an unbound variable) is a usage error, found before any request is sent.
 * int64 values past 2^53 go through as bigint, digit for digit.
 */
export async function compileQuery(expression: string): Promise<Query> {
  checkLexically(expression);
  const jmespath = await loadLibrary();
  let ast: ReturnType<Library['compile']>;
  try {
    ast = jmespath.compile(expression);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  const runtime = jmespath.TreeInterpreter.runtime as unknown as Runtime;
  checkTree(ast as unknown as Record<string, unknown>, functionTable(runtime));
  return (value) => {
    try {
      return jmespath.TreeInterpreter.search(ast, value as never);
    } catch (error) {
      const message = (error as Error).message;
      throw new QueryFailedError(`--query failed on the output: ${message}`, {
        hint: BIGINT_TROUBLE.test(message)
          ? 'An int64 past 2^53 cannot go through arithmetic or ordering functions (JMESPath numbers are doubles); projections, filters, sort(), type() and to_string() take it exactly.'
          : 'The expression does not fit what the command prints: try it on the output without --query.',
      });
    }
  };
}
