// Node 22+ (V8) implements the "JSON.parse source text access" proposal, which the bundled
// TypeScript lib does not describe yet.
interface JSONReviverContext {
  source?: string;
}

interface JSON {
  parse(
    text: string,
    reviver: (this: unknown, key: string, value: unknown, context: JSONReviverContext) => unknown,
  ): unknown;
  rawJSON(text: string): unknown;
  /** Whether the value was made by JSON.rawJSON. */
  isRawJSON(value: unknown): boolean;
}

declare const __PETSTORE_VERSION__: string;
