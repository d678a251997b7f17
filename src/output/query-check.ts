import { UsageError } from '../core/errors.js';
import { parseJson } from '../core/json.js';

/**
 * What the JMESPath library accepts but cannot mean, found before anything is sent: a quoted
 * string, raw string or JSON literal never closed (the library reads to the end of the
 * expression), and a literal number past 2^53, which it would read as a double.
 */
export function checkLexically(expression: string): void {
  const closers: Record<string, string> = { "'": 'raw string', '`': 'literal', '"': 'quoted name' };
  for (let i = 0; i < expression.length; i++) {
    const quote = expression[i]!;
    const what = closers[quote];
    if (what === undefined) continue;
    const start = i;
    for (i++; i < expression.length && expression[i] !== quote; i++) {
      if (expression[i] === '\\') i++;
    }
    if (i >= expression.length) {
      throw invalid(`the ${what} opened at character ${start + 1} is never closed (${quote})`);
    }
    if (quote === '`') checkLiteral(expression.slice(start + 1, i).replaceAll('\\`', '`'));
  }
}

function checkLiteral(text: string): void {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return; // the library says what is wrong with it
  }
  if (holdsBigInt(value)) {
    throw invalid(
      `the literal \`${text}\` holds an integer past 2^53, which JMESPath's numbers (doubles) cannot hold exactly`,
      'Compare such ids as text: [?to_string(id) == `"9223372036854775807"`].',
    );
  }
}

function holdsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(holdsBigInt);
}

export function invalid(why: string, hint?: string): UsageError {
  return new UsageError(`--query is not a valid JMESPath expression: ${why}`, {
    hint: hint ?? `e.g. --query "[?status=='sold'].name" (https://jmespath.org)`,
  });
}

type Node = Record<string, unknown>;

/** What the interpreter knows of a function: whether it exists, and what it takes. */
export interface FunctionTable {
  exists(name: string): boolean;
  /** Throws when the function cannot take `count` arguments. */
  checkArity(name: string, count: number): void;
  /**
   * Throws when an argument whose value is known before any data (a literal, an &expression)
   * is of a type the function does not take at that place.
   */
  checkKnownArguments(name: string, children: readonly Node[]): void;
}

/**
 * Checks a compiled expression as a whole, before anything is sent: every function exists
 * and gets as many arguments as it takes, every variable is bound by an enclosing `let`, no
 * slice has a step of 0, and the whole is not a bare expression reference (`&name`), which
 * only a function such as sort_by takes. The library finds these only when evaluating the
 * part that holds them, which data may never reach.
 */
export function checkTree(root: Node, functions: FunctionTable): void {
  const visit = (node: unknown, bound: ReadonlySet<string>): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, bound);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const fields = node as Node;
    switch (fields.type) {
      case 'Function': {
        const name = String(fields.name);
        if (!functions.exists(name)) throw invalid(`there is no function ${name}()`);
        const children = fields.children as Node[];
        try {
          functions.checkArity(name, children.length);
          functions.checkKnownArguments(name, children);
        } catch (error) {
          throw invalid((error as Error).message.replace(/^Invalid (arity|type): /, ''));
        }
        // An &expression is taken here, where the function takes one: what it refers to is
        // checked like any expression.
        for (const child of children) {
          visit(child.type === 'ExpressionReference' ? child.child : child, bound);
        }
        return;
      }
      case 'ExpressionReference':
        throw invalid(
          'an &expression is only an argument of a function that takes one, such as sort_by(@, &name)',
        );
      case 'Variable':
        if (!bound.has(String(fields.name))) {
          throw invalid(`the variable $${String(fields.name)} is not bound by a let expression`);
        }
        break;
      case 'Slice':
        if (fields.step === 0) throw invalid('a slice step cannot be 0');
        break;
      case 'LetExpression': {
        const bindings = fields.bindings as Node[];
        for (const binding of bindings) visit(binding.reference, bound);
        const inner = new Set(bound);
        for (const binding of bindings) inner.add(String(binding.variable));
        visit(fields.expression, inner);
        return;
      }
    }
    for (const [key, child] of Object.entries(fields)) if (key !== 'type') visit(child, bound);
  };
  visit(root, new Set());
}
