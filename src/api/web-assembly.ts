import { UsageError } from '../core/errors.js';

/**
 * Why this Node cannot run undici's HTTP parser (llhttp, built to WebAssembly), or undefined
 * when it can: no WebAssembly at all (node --jitless), or none that can have memory
 * (--wasm-max-mem-pages=0). Asked when a client is made, before a journal or a check starts:
 * every exchange would otherwise fail once its connection is open, and read as a network
 * failure, or a write's outcome as unknown, though nothing was sent.
 */
export function webAssemblyProblem(): string | undefined {
  if (!('WebAssembly' in globalThis))
    // eslint-disable-next-line no-restricted-syntax -- Node's own option, not petstore's
    return 'this Node runs without WebAssembly (as with --jitless)';
  try {
    const wasm = (globalThis as unknown as { WebAssembly: { Memory: new (d: object) => unknown } })
      .WebAssembly;
    new wasm.Memory({ initial: 1 });
    return undefined;
  } catch {
    // eslint-disable-next-line no-restricted-syntax -- Node's own option, not petstore's
    return 'this Node cannot give WebAssembly memory (as with --wasm-max-mem-pages=0)';
  }
}

export function noWebAssembly(problem: string): UsageError {
  return new UsageError(
    `cannot reach the service: ${problem}, which the HTTP client needs to read answers; nothing was sent`,
    { hint: 'Run petstore without that Node option (look in NODE_OPTIONS).' },
  );
}
