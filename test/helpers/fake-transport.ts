import { expect } from 'vitest';
import type { HttpRequest, HttpResponse, Transport } from '../../src/api/http.js';

interface Stub {
  method: HttpRequest['method'];
  /** Path and query, e.g. "/v1/pets?limit=5". */
  path: string;
  respond: (request: HttpRequest) => HttpResponse | Promise<HttpResponse>;
  used: boolean;
}

/** A JSON reply. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return (): HttpResponse => ({
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * A Transport that answers from a script and records every request, in the manner of the
 * GitHub CLI's httpmock registry: a request nobody scripted fails, and `verify()` fails the test
 * when a scripted reply was never asked for. Each stub answers once, in the order given.
 */
export class FakeTransport implements Transport {
  readonly requests: HttpRequest[] = [];
  private readonly stubs: Stub[] = [];

  on(method: HttpRequest['method'], path: string, respond: Stub['respond']): this {
    this.stubs.push({ method, path, respond, used: false });
    return this;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    this.requests.push(request);
    const path = `${request.url.pathname}${request.url.search}`;
    const stub = this.stubs.find((s) => !s.used && s.method === request.method && s.path === path);
    if (!stub) throw new Error(`unscripted request: ${request.method} ${path}`);
    stub.used = true;
    return stub.respond(request);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  verify(): void {
    const unused = this.stubs.filter((s) => !s.used).map((s) => `${s.method} ${s.path}`);
    expect(unused, 'every scripted reply was requested').toEqual([]);
  }
}
