export interface Output {
  write(text: string): unknown;
}

/** Everything a command may touch of the process's streams; tests pass fakes. */
export interface IO {
  stdout: Output;
  stderr: Output;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

// Node's typings say boolean, but isTTY is undefined on pipes and files.
function isTTY(stream: { isTTY?: boolean | undefined }): boolean {
  return stream.isTTY === true;
}

export function processIO(): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: isTTY(process.stdout),
    stderrIsTTY: isTTY(process.stderr),
    stdinIsTTY: isTTY(process.stdin),
  };
}
