import { stringifyJson } from '../core/json.js';
import type { RefusedWrite } from '../history/entry.js';

/** What each writing tool would have sent: its operation and request. */
const WRITES: Record<string, { operation: string; path: string }> = {
  // Paths under the service's URL (`pets`) or its quickstart URL (`quickstart:messages`).
  add_pet: { operation: 'pets add', path: 'pets' },
  add_pets: { operation: 'pets import', path: 'pets' },
  send_message: { operation: 'message send', path: 'quickstart:messages' },
};

/**
 * A refused call as the history keeps it: the pet's fields as the agent gave them; of a batch,
 * how many pets; of a message, its length only (its text is never kept).
 */
export function refusedWrite(
  tool: string,
  args: Record<string, unknown>,
  refusal: { outcome: 'refused' | 'declined'; message: string },
): RefusedWrite {
  const write = WRITES[tool] ?? { operation: tool, path: '' };
  let sent: string | undefined;
  if (tool === 'add_pet') {
    // As a sent pet is kept: categoryId a number, as it goes on the wire.
    const categoryId =
      typeof args.category_id === 'string' && /^-?\d+$/.test(args.category_id)
        ? BigInt(args.category_id)
        : args.category_id;
    sent = stringifyJson({ name: args.name, categoryId, status: args.status });
  } else if (tool === 'add_pets' && Array.isArray(args.pets)) {
    sent = stringifyJson({ pets: args.pets.length });
  } else if (typeof args.message === 'string') {
    sent = stringifyJson({ length: args.message.length });
  }
  return {
    outcome: refusal.outcome,
    operation: write.operation,
    method: 'POST',
    path: write.path,
    sent,
    error: refusal.message,
  };
}
