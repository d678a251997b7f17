import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../../../src/commands/pets/resume-command.js';

describe('resumeCommand', () => {
  it('names the journal; a run that read standard input needs it again', () => {
    expect(resumeCommand('/tmp/pets.ndjson.journal', '/tmp/pets.ndjson')).toBe(
      'petstore pets import --resume /tmp/pets.ndjson.journal',
    );
    expect(resumeCommand('/tmp/run.journal', '-')).toBe(
      '... | petstore pets import - --resume /tmp/run.journal',
    );
  });

  it('quotes a path the shell would split or expand', () => {
    expect(resumeCommand("/tmp/my pets/it's.journal", 'in.ndjson')).toBe(
      "petstore pets import --resume '/tmp/my pets/it'\\''s.journal'",
    );
  });
});
