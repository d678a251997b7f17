import { isUtf8 } from 'node:buffer';
import type { Dispatcher } from 'undici';

/** A whole response, its body decoded as UTF-8. */
export interface TextExchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body was not valid UTF-8 (what could not be read became U+FFFD). */
  notUtf8?: true;
}

/** The exchange ran past its deadline; it was aborted. */
export class DeadlinePassed extends Error {}

/** The response's body is larger than the limit: declared so, or found so while reading. */
export class BodyTooLarge extends Error {
  constructor(readonly status: number) {
    super('response body too large');
  }
}

const BOM = 0xfeff;

function decode(chunks: Buffer[], size: number): { text: string; notUtf8?: true } {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  const decoded = bytes.toString('utf8');
  // As undici's body.text() does: a leading byte order mark is not part of the text.
  const text = decoded.charCodeAt(0) === BOM ? decoded.slice(1) : decoded;
  return isUtf8(bytes) ? { text } : { text, notUtf8: true };
}

/**
 * Sends one request through undici's handler interface and collects the body as text. It does
 * what `dispatcher.request()` plus `body.text()` did, without a stream, an AbortSignal and its
 * listeners per request: about a fifth of an import's client time went to those.
 *
 * Rejects with DeadlinePassed after `deadlineMs` (the request is aborted), with BodyTooLarge
 * when the body exceeds `maxBytes` (the agent must enforce the same limit while reading), and
 * with undici's error otherwise.
 */
export function exchangeText(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  limits: { deadlineMs: number; maxBytes: number },
): Promise<TextExchange> {
  return new Promise<TextExchange>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let headers: TextExchange['headers'] = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
    };
    const fail = (error: Error) => {
      if (settled) return;
      settle();
      // Aborting reports back through onResponseError, which finds the exchange settled.
      if (controller && !controller.aborted) controller.abort(error);
      reject(error);
    };
    const timer = setTimeout(() => fail(new DeadlinePassed()), limits.deadlineMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        // Given up on before it was written to a connection: it is never sent.
        if (settled) started.abort(new DeadlinePassed());
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders;
        if (Number(responseHeaders['content-length']) > limits.maxBytes) {
          fail(new BodyTooLarge(statusCode));
        }
      },
      onResponseData(_controller, chunk) {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
      },
      onResponseEnd() {
        if (settled) return;
        settle();
        resolve({ status, headers, ...decode(chunks, size) });
      },
      onResponseError(_controller, error) {
        if (settled) return;
        settle();
        const exceeded = (error as { code?: unknown }).code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
        reject(exceeded ? new BodyTooLarge(status) : error);
      },
    };
    try {
      dispatcher.dispatch(options, handler);
    } catch (error) {
      fail(error as Error);
    }
  });
}
