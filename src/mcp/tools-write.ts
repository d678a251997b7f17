import type { ServerContext } from '@modelcontextprotocol/server';
import { parseInt64 } from '../core/int64.js';
import type { NewPet } from '../core/interface.js';
import { addPet, checkedPet, previewAddPet } from '../operations/pets/add.js';
import { checkedMessage, previewSendMessage, sendMessage } from '../operations/message/send.js';
import { randomUUID } from 'node:crypto';
import { PetstoreError } from '../core/errors.js';
import { derivedWriteKey } from '../operations/write-key.js';
import type { RequestPreview } from '../api/request.js';
import { agentPet, agentValue, type AgentRecord } from './agent-data.js';
import type { McpDeps, ToolShelf } from './deps.js';
import { agentRequest, requestText } from './request-view.js';
import { dataResult, errorResult } from './results.js';
import { stoppedBeforeSending } from './stopping.js';
import {
  addPetInput,
  addPetOutput,
  DATA_NOT_INSTRUCTIONS,
  sendMessageInput,
  sendMessageOutput,
} from './schemas.js';
import type { ServerGate } from './write-gate.js';

/** What writes: never destroys; not idempotent unless the same request_id is given again. */
const WRITES = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** Said of every write tool: the rules it runs under. */
const WRITE_RULES =
  'Writes need the server started with --allow-writes and a profile that allows them; the person may be asked to confirm the exact request first. Each write has a request_id (give your own, or use the one the result returns): called again with the same request_id, it is sent with the same Idempotency-Key, so nothing is made twice. dry_run shows the request and sends nothing.';

/** The call's arguments that make the write (not dry_run, not request_id). */
function writeArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(([name]) => name !== 'dry_run' && name !== 'request_id'),
  );
}

/**
 * The Idempotency-Key of a request id: the same id, the same key, whatever else the call says,
 * so a retry creates nothing twice and the same id with another body is refused by the service.
 */
function requestKey(deps: McpDeps, tool: string, requestId: string): string {
  return derivedWriteKey([deps.service, tool, requestId]);
}

/** What to do about a write whose outcome is unknown, in the tool's own terms. */
function unknownOutcomeHint(error: unknown, tool: string, requestId: string | undefined) {
  if (!(error instanceof PetstoreError) || !error.outcomeUnknown || requestId === undefined) {
    return {};
  }
  return {
    hint: `The outcome is unknown: call ${tool} again with the same arguments and request_id "${requestId}"; the service answers from the first send if it had it, so nothing is made twice.`,
    fields: { retryWith: { request_id: requestId } },
  };
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

/** One write (add_pet, send_message): what it sends, and how to send it once allowed. */
interface SingleWrite<Body, Sent> {
  tool: string;
  args: { dry_run?: boolean | undefined; request_id?: string | undefined } & Record<
    string,
    unknown
  >;
  /** What the person is asked to allow, e.g. "add a pet". */
  what: string;
  /** The body, checked as every front end checks it (throws a UsageError): before anything. */
  check(): Body;
  preview(body: Body, key: string): Promise<RequestPreview>;
  send(body: Body, key: string): Promise<Sent>;
  result(sent: Sent): AgentRecord;
}

/**
 * A write through the gate: a dry run shows the request; else the gate decides, and the write
 * is sent with the key of its request id (given, or made for it and returned, so that a call
 * whose outcome is unknown can be made again safely).
 */
async function singleWrite<Body, Sent>(
  deps: McpDeps,
  gate: ServerGate,
  ctx: ServerContext,
  write: SingleWrite<Body, Sent>,
) {
  let requestId = write.args.request_id;
  // The client's cancel of this call, or the server stopping: nothing new is sent.
  const stop = AbortSignal.any([ctx.mcpReq.signal, deps.stopping]);
  try {
    const body = write.check();
    if (write.args.dry_run === true) {
      requestId ??= randomUUID();
      const key = requestKey(deps, write.tool, requestId);
      const request = await write.preview(body, key);
      return dataResult({
        dryRun: true,
        requestId,
        idempotencyKey: key,
        request: agentRequest(request),
      });
    }
    const admission = await gate.admit(ctx, {
      tool: write.tool,
      args: writeArgs(write.args),
      token: requestId,
      describe: async (id) => {
        const key = requestKey(deps, write.tool, id);
        return confirmText(deps, write.what, requestText(await write.preview(body, key)), key);
      },
    });
    if ('result' in admission) return admission.result;
    requestId = admission.token;
    if (stop.aborted) throw stoppedBeforeSending(deps.stopping.aborted);
    const key = requestKey(deps, write.tool, requestId);
    const sent = await write.send(body, key);
    return dataResult({ dryRun: false, requestId, idempotencyKey: key, ...write.result(sent) });
  } catch (error) {
    return errorResult(error, unknownOutcomeHint(error, write.tool, requestId));
  }
}

/** The tools that write: add_pet and send_message. */
export function registerWriteTools(server: ToolShelf, deps: McpDeps, gate: ServerGate): void {
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
      deps.write(() =>
        singleWrite(deps, gate, ctx, {
          tool: 'add_pet',
          args,
          what: 'add a pet',
          check: (): NewPet =>
            checkedPet({
              name: args.name,
              categoryId: parseInt64(args.category_id, 'category_id'),
              ...(args.status === undefined ? {} : { status: args.status }),
            }),
          preview: (pet, key) => previewAddPet({ client: connect }, { pet, idempotencyKey: key }),
          send: (pet, key) => addPet({ client: connect }, { pet, idempotencyKey: key }),
          result: (added) => {
            deps.log(
              `add_pet: created pet ${String(added.pet.id)}${added.replayed ? ' (replayed)' : ''}`,
            );
            return { pet: agentPet(added.pet), replayed: added.replayed };
          },
        }),
      ),
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
      deps.write(() =>
        singleWrite(deps, gate, ctx, {
          tool: 'send_message',
          args,
          what: 'send a message',
          check: () => checkedMessage(args.message),
          preview: (message, key) =>
            previewSendMessage({ client: connect }, { message, idempotencyKey: key }),
          send: (message, key) =>
            sendMessage({ client: connect }, { message, idempotencyKey: key }),
          result: (sent) => {
            deps.log(
              `send_message: ${sent.queued ? 'queued' : 'sent'}${sent.replayed ? ' (replayed)' : ''}`,
            );
            return {
              receipt: agentValue(sent.receipt),
              replayed: sent.replayed,
              queued: sent.queued,
            };
          },
        }),
      ),
  );
}
