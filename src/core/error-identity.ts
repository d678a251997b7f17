import { PetstoreError } from './errors.js';
import { sanitizeLine } from './sanitize.js';

/** What names an error for a reader and a record: the contract's code, message and status. */
export interface ErrorIdentity {
  code: string;
  message: string;
  status: number;
}

export interface SystemError {
  code: string;
  syscall: string;
  path?: string;
  address?: string;
}

/** An error the operating system raised (ENOENT, EACCES, ENOSPC, EADDRINUSE, ...). */
export function systemError(error: unknown): SystemError | undefined {
  const candidate = error as Partial<SystemError> | undefined;
  return error instanceof Error &&
    typeof candidate?.code === 'string' &&
    typeof candidate.syscall === 'string'
    ? (candidate as SystemError)
    : undefined;
}

/** Any error's code, message and status, sanitised: what a journal keeps and a front end shows. */
export function errorIdentity(error: unknown): ErrorIdentity {
  const system = error instanceof PetstoreError ? undefined : systemError(error);
  const identity: ErrorIdentity =
    error instanceof PetstoreError
      ? { code: error.code, message: error.message, status: error.status }
      : system
        ? {
            code: system.code.toLowerCase(),
            message: `cannot ${[system.syscall, system.path ?? system.address].filter(Boolean).join(' ')}: ${system.code}`,
            status: 0,
          }
        : {
            code: 'internal',
            message: `unexpected error: ${error instanceof Error ? error.message : String(error)}`,
            status: 0,
          };
  return {
    code: sanitizeLine(identity.code),
    message: sanitizeLine(identity.message),
    status: identity.status,
  };
}
