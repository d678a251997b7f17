import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { parseInt64 } from '../core/int64.js';
import type { NewPet } from '../core/interface.js';
import { addPet, checkedPet, previewAddPet } from '../operations/pets/add.js';
import { checkedMessage, previewSendMessage, sendMessage } from '../operations/message/send.js';
import { derivedWriteKey, writeKey } from '../operations/write-key.js';
import { agentPet, agentValue } from './agent-data.js';
import type { McpDeps } from './deps.js';
import { agentRequest, requestText } from './request-view.js';
import { dataResult, errorResult } from './results.js';
import {
  addPetInput,
  addPetOutput,
  DATA_NOT_INSTRUCTIONS,
  sendMessageInput,
  sendMessageOutput,
} from './schemas.js';
import type { WriteGate } from './write-gate.js';

/** What writes: never destroys; not idempotent unless the same request_id is given again. */
const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };

/** Said of every write tool: the rules it runs under. */
const WRITE_RULES =
  'Writes need the server started with --allow-writes and a profile that allows them; the person may be asked to confirm the exact request first. Give request_id to make a retry safe. dry_run shows the request and sends nothing.';

/** The call's arguments that make the write (not dry_run, not request_id). */
function writeArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(([name]) => name !== 'dry_run' && name !== 'request_id'),
  );
}

/** The key fixed by the caller's request_id (the same call again: the same key), if given. */
function requestKey(deps: McpDeps, tool: string, args: Record<string, unknown>) {
  const requestId = args.request_id;
  if (typeof requestId !== 'string') return undefined;
  return derivedWriteKey([deps.service, tool, JSON.stringify(writeArgs(args)), requestId]);
}

function confirmText(deps: McpDeps, what: string, request: string, key: string): string {
  return [
    `An agent asks to ${what} through petstore mcp (${deps.policy.label}).`,
    'This request would be sent:',
    '',
    request,
    '',
    `Idempotency-Key: ${key}`,
    'Accept with "send" ticked to send it; decline to send nothing.',
  ].join('\n');
}

/** The tools that write: add_pet and send_message. */
export function registerWriteTools(server: McpServer, deps: McpDeps, gate: WriteGate): void {
  const connect = () => deps.client();
  server.registerTool(
    'add_pet',
    {
      title: 'Add a pet',
      description: `Add one pet to ${deps.policy.label} (POST /pets, with an Idempotency-Key). category_id is a string of digits, so every int64 stays exact. ${WRITE_RULES} ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: addPetInput,
      outputSchema: addPetOutput,
      annotations: { title: 'Add a pet', ...WRITES },
    },
    (args, ctx: ServerContext) =>
      deps.write(async () => {
        try {
          const pet: NewPet = checkedPet({
            name: args.name,
            categoryId: parseInt64(args.category_id, 'category_id'),
            ...(args.status === undefined ? {} : { status: args.status }),
          });
          const fixed = requestKey(deps, 'add_pet', args);
          if (args.dry_run === true) {
            const key = writeKey(fixed);
            const request = await previewAddPet({ client: connect }, { pet, idempotencyKey: key });
            return dataResult({
              dryRun: true,
              idempotencyKey: key,
              request: agentRequest(request),
            });
          }
          const admission = await gate.admit(ctx, {
            tool: 'add_pet',
            args: writeArgs(args),
            token: fixed,
            describe: async (key) =>
              confirmText(
                deps,
                'add a pet',
                requestText(await previewAddPet({ client: connect }, { pet, idempotencyKey: key })),
                key,
              ),
          });
          if ('result' in admission) return admission.result;
          const added = await addPet({ client: connect }, { pet, idempotencyKey: admission.token });
          deps.log(
            `add_pet: created pet ${String(added.pet.id)}${added.replayed ? ' (replayed)' : ''}`,
          );
          return dataResult({
            dryRun: false,
            pet: agentPet(added.pet),
            replayed: added.replayed,
            idempotencyKey: admission.token,
          });
        } catch (error) {
          return errorResult(error);
        }
      }),
  );

  server.registerTool(
    'send_message',
    {
      title: 'Send a quickstart message',
      description: `Send a message to the quickstart endpoint of ${deps.policy.label} (POST /messages, with an Idempotency-Key). ${WRITE_RULES} ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: sendMessageInput,
      outputSchema: sendMessageOutput,
      annotations: { title: 'Send a quickstart message', ...WRITES },
    },
    (args, ctx: ServerContext) =>
      deps.write(async () => {
        try {
          const message = checkedMessage(args.message);
          const fixed = requestKey(deps, 'send_message', args);
          if (args.dry_run === true) {
            const key = writeKey(fixed);
            const request = await previewSendMessage(
              { client: connect },
              { message, idempotencyKey: key },
            );
            return dataResult({
              dryRun: true,
              idempotencyKey: key,
              request: agentRequest(request),
            });
          }
          const admission = await gate.admit(ctx, {
            tool: 'send_message',
            args: writeArgs(args),
            token: fixed,
            describe: async (key) =>
              confirmText(
                deps,
                'send a message',
                requestText(
                  await previewSendMessage({ client: connect }, { message, idempotencyKey: key }),
                ),
                key,
              ),
          });
          if ('result' in admission) return admission.result;
          const sent = await sendMessage(
            { client: connect },
            { message, idempotencyKey: admission.token },
          );
          deps.log(
            `send_message: ${sent.queued ? 'queued' : 'sent'}${sent.replayed ? ' (replayed)' : ''}`,
          );
          return dataResult({
            dryRun: false,
            receipt: agentValue(sent.receipt),
            replayed: sent.replayed,
            queued: sent.queued,
            idempotencyKey: admission.token,
          });
        } catch (error) {
          return errorResult(error);
        }
      }),
  );
}
