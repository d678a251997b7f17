// Preloaded with --import: makes the process report an unsupported Node version.
Object.defineProperty(process.versions, 'node', { value: '20.20.2' });
