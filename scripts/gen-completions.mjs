// Writes completions/ from the built program, so the committed scripts match the commands.
// Run after `npm run build`: npm run completions
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const files = { bash: 'petstore.bash', zsh: '_petstore', fish: 'petstore.fish' };
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, ['bin/petstore.js', 'completion', shell]);
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), script);
}
