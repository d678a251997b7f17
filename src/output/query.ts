import { UsageError } from '../core/errors.js';

/** A compiled --query: the JSON value a command would print, and what it prints instead. */
export type Query = (value: unknown) => unknown;

/**
 * Compiles a JMESPath expression (the aws and az convention), with the community's TypeScript
 * implementation of the spec, loaded only when a run asks for it. A syntax error is a usage
 * error, found before any request is sent. int64 values past 2^53 go through as bigint, digit
 * for digit; JMESPath's numbers are doubles, so such values compare as null and cannot be
 * sorted (an error), which the help says.
 */
export async function compileQuery(expression: string): Promise<Query> {
  const { compile, TreeInterpreter } = await import('@jmespath-community/jmespath');
  let ast: ReturnType<typeof compile>;
  try {
    ast = compile(expression);
  } catch (error) {
    throw new UsageError(
      `--query is not a valid JMESPath expression: ${(error as Error).message}`,
      { hint: `e.g. --query "[?status=='sold'].name" (https://jmespath.org)` },
    );
  }
  return (value) => {
    try {
      return TreeInterpreter.search(ast, value as never);
    } catch (error) {
      // A function given what it cannot take (sort_by over text, or over an int64 past 2^53,
      // which JMESPath's doubles cannot hold): the expression's fault, said as such.
      throw new UsageError(`--query failed on the output: ${(error as Error).message}`, {
        hint: 'JMESPath compares and sorts numbers as doubles: int64 values past 2^53 pass through exactly, but cannot be compared or sorted.',
      });
    }
  };
}
