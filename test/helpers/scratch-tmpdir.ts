import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every temporary folder the tests make (homes, inputs, databases) goes
 * under one scratch folder, removed when the run ends, so test runs leave nothing in /tmp.
 * Workers start after this runs and inherit TMPDIR.
 */
export default function setup(): () => void {
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-tests-'));
  process.env.TMPDIR = scratch;
  return () => rmSync(scratch, { recursive: true, force: true });
}
