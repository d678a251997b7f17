/** One line of the doctor's report. */
export interface Finding {
  status: 'ok' | 'warn' | 'fail' | 'info';
  check: string;
  detail: string;
  /** What to do about a warning or a failure. */
  fix?: string | undefined;
  /** For a failure: the exit code of its class (2 usage, 3 auth, 6 service, 7 network). */
  exitCode?: number | undefined;
}

export const ok = (check: string, detail: string): Finding => ({ status: 'ok', check, detail });
export const info = (check: string, detail: string): Finding => ({ status: 'info', check, detail });
export const warn = (check: string, detail: string, fix: string): Finding => ({
  status: 'warn',
  check,
  detail,
  fix,
});
export const fail = (check: string, detail: string, fix: string, exitCode: number): Finding => ({
  status: 'fail',
  check,
  detail,
  fix,
  exitCode,
});
