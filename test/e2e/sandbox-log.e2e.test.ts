import { describe, expect, it } from 'vitest';
import { serveSandbox } from '../helpers/serve-sandbox.js';
import { waitUntil } from '../helpers/wait-until.js';

/** `sandbox serve` shows a person what their script sent, a line a request. */

const KEY = 'sandbox-key';

async function post(url: string, body: string, idempotencyKey: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      'idempotency-key': idempotencyKey,
    },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe('sandbox serve logs each request', () => {
  it('time, method, path, status, ms, and the end of an Idempotency-Key, replayed or not', async () => {
    // Text: what a person reads (stderr here is a pipe, where JSON is the default).
    const sandbox = await serveSandbox(['--memory', '--error-format', 'text']);
    try {
      const key = 'run-7-record-000123-abcdef';
      expect(await post(`${sandbox.apiBaseUrl}/pets`, '{"name":"Rex","categoryId":1}', key)).toBe(
        201,
      );
      expect(await post(`${sandbox.apiBaseUrl}/pets`, '{"name":"Rex","categoryId":1}', key)).toBe(
        201,
      );
      const list = await fetch(`${sandbox.apiBaseUrl}/pets?limit=5`, {
        headers: { authorization: 'Bearer wrong-key-9876543210' },
      });
      await list.arrayBuffer();
      await waitUntil(() => (sandbox.stderr().match(/ ms/g) ?? []).length >= 3, 'three log lines');
      const lines = sandbox
        .stderr()
        .split('\n')
        .filter((line) => / ms/.test(line));
      expect(lines[0]).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3}Z POST \/v1\/pets 201 \d+ ms idempotency-key …abcdef$/,
      );
      expect(lines[1]).toMatch(/ POST \/v1\/pets 201 \d+ ms idempotency-key …abcdef replayed$/);
      expect(lines[2]).toMatch(/ GET \/v1\/pets\?limit=5 401 \d+ ms$/);
      expect(sandbox.stderr()).not.toContain(key);
      expect(sandbox.stderr()).not.toContain('wrong-key-9876543210');
    } finally {
      await sandbox.stop();
    }
  });

  it('says nothing of requests with --quiet', async () => {
    const sandbox = await serveSandbox(['--memory', '--quiet']);
    try {
      expect(await post(`${sandbox.apiBaseUrl}/pets`, '{"name":"Rex","categoryId":1}', 'k-1')).toBe(
        201,
      );
    } finally {
      // Stopped, its stderr is read to the end: a line for the request would be in it.
      await sandbox.stop();
    }
    expect(sandbox.stderr()).not.toMatch(/ ms/);
  });

  it('as one JSON object a request when stderr is a pipe and errors are JSON', async () => {
    const sandbox = await serveSandbox(['--memory']);
    try {
      const key = 'run-8-record-000042-fedcba';
      expect(await post(`${sandbox.apiBaseUrl}/pets`, '{"name":"Rex","categoryId":1}', key)).toBe(
        201,
      );
      await waitUntil(() => sandbox.stderr().includes('{"request":'), 'the request object');
    } finally {
      await sandbox.stop();
    }
    const lines = sandbox.stderr().trimEnd().split('\n');
    const objects = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects[0]).toMatchObject({ sandbox: { listening: true, data: 'in memory' } });
    expect(objects).toContainEqual({
      request: {
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
        method: 'POST',
        path: '/v1/pets',
        status: 201,
        ms: expect.any(Number) as number,
        idempotencyKey: '…fedcba',
        replayed: false,
      },
    });
    expect(objects.at(-1)).toMatchObject({
      code: 'interrupted',
      message: 'terminated; the sandbox was stopped cleanly',
    });
  });
});
