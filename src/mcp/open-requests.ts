/**
 * The client's requests not yet answered, by id: seen as their lines come in and as their
 * answers go out. When the client closes stdin, the server waits for them (its stdout may
 * still be read), so no request it took is left without an answer.
 */
export class OpenRequests {
  private readonly open = new Map<string, number>();
  private waiters: (() => void)[] = [];

  /** A request line with this id came in. */
  opened(id: unknown): void {
    const key = JSON.stringify(id);
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
  }

  /** The client cancelled this request: the SDK sends no answer, so it is open no more. */
  cancelled(id: unknown): void {
    this.close(JSON.stringify(id));
  }

  /** A line went out: if it answers a request, that request is no longer open. */
  sent(line: string): void {
    if (this.open.size === 0 || !line.includes('"id"')) return;
    let message: { id?: unknown; method?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return;
    }
    if (message.method !== undefined || message.id === undefined) return;
    this.close(JSON.stringify(message.id));
  }

  private close(key: string): void {
    if (!this.open.has(key)) return;
    const count = (this.open.get(key) ?? 0) - 1;
    if (count > 0) this.open.set(key, count);
    else this.open.delete(key);
    if (this.open.size === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once every request is answered, or after `limitMs` (one a client never can). */
  async answered(limitMs: number): Promise<void> {
    if (this.open.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      timer = setTimeout(resolve, limitMs);
    });
    clearTimeout(timer);
  }
}
