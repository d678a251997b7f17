/**
 * The top-level commands that are not part of the program's own file: loaded when a command
 * line names one of them, or when the whole program is wanted (root help, completion).
 */
export { registerApi } from '../commands/api/api.js';
export { registerAuth } from '../commands/auth/index.js';
export { registerCompletion } from '../commands/completion/completion.js';
export { registerDoctor } from '../commands/doctor/doctor.js';
export { registerHistory } from '../commands/history/index.js';
export { registerJournal } from '../commands/journal/index.js';
export { registerMcp } from '../commands/mcp/mcp.js';
export { registerProfile } from '../commands/profile/index.js';
export { registerSandbox } from '../commands/sandbox/index.js';
export { registerSmoke } from '../commands/smoke/smoke.js';
