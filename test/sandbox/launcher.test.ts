import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchSandbox } from '../../src/sandbox/launcher.js';

describe('launchSandbox', () => {
  it.runIf(process.platform === 'linux')(
    'serves on an abstract local socket on Linux, over HTTP, with its per-run key',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'petstore-launch-'));
      const sandbox = await launchSandbox({ databaseFile: join(folder, 'sandbox.db') });
      try {
        expect(sandbox.socketPath?.startsWith('\0petstore-sandbox-')).toBe(true);
        expect(sandbox.baseUrl).toBe('http://127.0.0.1/v1');
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(
            {
              socketPath: sandbox.socketPath,
              path: '/v1/pets',
              headers: { authorization: `Bearer ${sandbox.apiKey}` },
            },
            (res) => {
              let body = '';
              res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
            },
          );
          req.on('error', reject);
          req.end();
        });
        expect(answer).toEqual({ status: 200, body: '[]' });
      } finally {
        await sandbox.close();
      }
    },
  );
});
