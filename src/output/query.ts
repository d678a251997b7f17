import { UsageError } from '../core/errors.js';
import { stringifyJson } from '../core/json.js';
import { checkLexically, checkTree, invalid, type FunctionTable } from './query-check.js';

/** A compiled --query: the JSON value a command would print, and what it prints instead. */
export type Query = (value: unknown) => unknown;

/** --query could not be applied to a value the command made (the expression's fault). */
export class QueryFailedError extends UsageError {}

type Library = typeof import('@jmespath-community/jmespath');

/** The parts of the library's runtime this module reaches, which its typings do not show. */
interface Runtime {
  _functionTable: Record<string, { _signature: Signature[] } | undefined>;
  validateArity(name: string, args: unknown[], signature: Signature[]): void;
  validateTypes(name: string, args: unknown[], signature: Signature[]): void;
  getTypeName(value: unknown): number | undefined;
}

interface Signature {
  types: number[];
  variadic?: boolean;
  optional?: boolean;
}

const TYPE_NUMBER = 0;
const TYPE_EXPREF = 6;
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
    exact('to_number', (value) => value);
    // Any value holding an int64 past 2^53: JSON with every digit (JSON.stringify throws).
    const toString = runtime._functionTable.to_string as unknown as {
      _func: (args: unknown[]) => unknown;
    };
    const originalToString = toString._func;
    toString._func = (args) =>
      typeof args[0] === 'string' ? originalToString.call(runtime, args) : stringifyJson(args[0]);
    // A numeric string past 2^53: the int64 it spells, exactly, not the nearest double.
    const toNumber = runtime._functionTable.to_number as unknown as {
      _func: (args: unknown[]) => unknown;
    };
    const originalToNumber = toNumber._func;
    toNumber._func = (args) => {
      const [value] = args;
      if (typeof value === 'string' && /^-?\d{16,19}$/.test(value.trim())) {
        const exact = BigInt(value.trim());
        if (exact >= -(2n ** 63n) && exact < 2n ** 63n) {
          return Number.isSafeInteger(Number(exact)) ? Number(exact) : exact;
        }
      }
      return originalToNumber.call(runtime, args);
    };
    compareExactly(loaded.TreeInterpreter);
    return loaded;
  });
  return library;
}

interface ComparatorNode {
  type: string;
  name?: string;
  left?: unknown;
  right?: unknown;
}
interface Interpreter {
  visit(node: ComparatorNode, value: unknown): unknown;
}

const ORDERINGS = new Set(['GT', 'GTE', 'LT', 'LTE']);
const isNumeric = (value: unknown): value is number | bigint =>
  typeof value === 'number' || typeof value === 'bigint';

/**
 * `>`, `>=`, `<` and `<=` on an int64 past 2^53 (a bigint) answered exactly: the library takes
 * only numbers there and answers null, so `[?categoryId > \`9000\`]` left out a pet whose
 * categoryId is 9007199254740993 (found by a user, exit 0 with `[]`). JavaScript compares a
 * bigint with a number exactly.
 */
function compareExactly(interpreter: Interpreter): void {
  const visit = interpreter.visit.bind(interpreter);
  interpreter.visit = (node, value) => {
    if (node.type !== 'Comparator' || !ORDERINGS.has(node.name ?? '')) return visit(node, value);
    const first = visit(node.left as ComparatorNode, value);
    const second = visit(node.right as ComparatorNode, value);
    if (!isNumeric(first) || !isNumeric(second)) return null;
    switch (node.name) {
      case 'GT':
        return first > second;
      case 'GTE':
        return first >= second;
      case 'LT':
        return first < second;
      default:
        return first <= second;
    }
  };
}

function functionTable(runtime: Runtime): FunctionTable {
  const signature = (name: string) => runtime._functionTable[name]!._signature;
  return {
    exists: (name) => runtime._functionTable[name] !== undefined,
    checkArity: (name, count) => runtime.validateArity(name, new Array(count), signature(name)),
    checkKnownArguments: (name, children) => {
      const specs = signature(name);
      const args = children.map((child, at) => {
        const spec = specs[Math.min(at, specs.length - 1)];
        const onlyExpref = spec?.types.length === 1 && spec.types[0] === TYPE_EXPREF;
        if (onlyExpref && child.type !== 'ExpressionReference') {
          throw new Error(`${name}() takes an &expression as argument ${at + 1}, e.g. &name`);
        }
        if (child.type === 'Literal') return child.value;
        if (child.type !== 'ExpressionReference') return undefined; // known only from data
        if (!spec?.types.includes(TYPE_EXPREF)) {
          throw new Error(`${name}() does not take an &expression as argument ${at + 1}`);
        }
        return { expref: true, ...(child.child as object) };
      });
      runtime.validateTypes(name, args, specs);
    },
  };
}

/**
 * A literal in backticks that is not JSON (`sold`, the AWS CLI habit) read as the string it
 * spells, as the reference JMESPath implementation still does (with a deprecation warning):
 * each becomes a raw string literal ('sold'). Strings and quoted names are passed over whole.
 * Returns the expression and the literals so read.
 */
export function readLegacyLiterals(expression: string): { expression: string; read: string[] } {
  const read: string[] = [];
  let out = '';
  for (let i = 0; i < expression.length; i++) {
    const char = expression[i]!;
    if (char === "'" || char === '"') {
      // A raw string or a quoted name: copied to its closing quote (a backslash escapes one).
      let end = i + 1;
      while (end < expression.length && expression[end] !== char)
        end += expression[end] === '\\' ? 2 : 1;
      out += expression.slice(i, end + 1);
      i = end;
      continue;
    }
    if (char !== '`') {
      out += char;
      continue;
    }
    let end = i + 1;
    while (end < expression.length && expression[end] !== '`')
      end += expression[end] === '\\' ? 2 : 1;
    if (end >= expression.length) {
      out += expression.slice(i); // unclosed: the checks below say so
      break;
    }
    const inside = expression.slice(i + 1, end);
    const text = inside.replaceAll('\\`', '`');
    let json = true;
    try {
      JSON.parse(text);
    } catch {
      json = false;
    }
    if (json) out += expression.slice(i, end + 1);
    else {
      const word = text.trim();
      read.push(word);
      out += `'${word.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
    }
    i = end;
  }
  return { expression: out, read };
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
export async function compileQuery(
  given: string,
  warn: (message: string) => void = () => undefined,
): Promise<Query> {
  const { expression, read } = readLegacyLiterals(given);
  if (read.length > 0) {
    const literals = [...new Set(read)];
    const as = literals.map((word) => `'${word}'`).join(', ');
    const json = literals.map((word) => `\`${JSON.stringify(word)}\``).join(', ');
    const those = literals.map((word) => `\`${word}\``).join(', ');
    warn(
      `--query: ${those} ${literals.length === 1 ? 'is' : 'are'} not JSON; read as ${as} (write ${as}, or ${json}: backticks hold JSON)`,
    );
  }
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
