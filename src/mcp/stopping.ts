import { CancelledError } from '../core/errors.js';

/** A write called off before anything was sent: the client cancelled, or the server is stopping. */
export function stoppedBeforeSending(serverStopping: boolean): CancelledError {
  return new CancelledError(
    serverStopping
      ? 'the server is stopping; nothing was sent'
      : 'the call was cancelled; nothing was sent',
  );
}
