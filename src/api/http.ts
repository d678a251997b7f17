/** One HTTP exchange as the client sees it, whatever carries it. */
export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods that change nothing: retried freely, sent with no Idempotency-Key. */
export function isSafeMethod(method: HttpMethod): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

export interface HttpRequest {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string | undefined>;
  text: string;
  /** The body was not valid UTF-8 (what could not be read became U+FFFD). */
  notUtf8?: true | undefined;
}

/**
 * What sends requests for a client: undici in production, a recording fake in tests. A failure
 * to exchange (refused, reset, timeout) is thrown as a NetworkError.
 */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}
