import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

export interface LaunchedSandbox {
  baseUrl: string;
  quickstartUrl: string;
  apiKey: string;
  close: () => Promise<void>;
}

export function launchSandbox(_ctx: Context): Promise<LaunchedSandbox> {
  return Promise.reject(
    new UsageError('the sandbox profile is not available yet', {
      hint: 'Choose a profile with a service URL: petstore profile use staging',
    }),
  );
}
