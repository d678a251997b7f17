/** One HTTP exchange as the client sees it, whatever carries it. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string | undefined>;
  text: string;
}

/**
 * What sends requests for a client: undici in production, a recording fake in tests. A failure
 * to exchange (refused, reset, timeout) is thrown as a NetworkError.
 */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}
