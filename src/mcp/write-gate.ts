import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AgentWrites } from '../config/schema.js';
import { WriteRefusedError } from '../core/errors.js';
import { snippet, withoutEscapes } from '../core/sanitize.js';
import { errorResult } from './results.js';

/** Who may write through this server, fixed when it starts. */
export interface WritePolicy {
  /** The profile served, as messages name it ("profile staging"). */
  label: string;
  profile: string;
  /** `petstore mcp --allow-writes`. */
  allowWrites: boolean;
  /** The profile's `--agent-writes`. */
  agentWrites: AgentWrites;
}

/** A write an agent asked for, before it is sent. */
export interface ProposedWrite {
  /** The tool, e.g. add_pet. */
  tool: string;
  /** The call's arguments: a confirmation holds for these only. */
  args: Record<string, unknown>;
  /**
   * What names the write (a request id, a batch id) when the arguments give it; undefined: a
   * new one, kept across the confirmation's rounds. Its Idempotency-Key(s) are made from it.
   */
  token: string | undefined;
  /** What the person is shown for the token, e.g. the request as --dry-run prints it. */
  describe(token: string): Promise<string>;
}

/** Decides each write a tool is asked for (see WriteGate). */
export interface ServerGate {
  admit(ctx: ServerContext, write: ProposedWrite): Promise<Admission>;
}

export type Admission = { token: string } | { result: CallToolResult | InputRequiredResult };

/** The refusals this gate answered with, by result: what the history records of each. */
const REFUSALS = new WeakMap<object, { code: string; message: string }>();

/** A refusal, its hint written here for the agent (not a command line's, reworded). */
const refused = (code: string, message: string, hint: string) => {
  const result = errorResult(new WriteRefusedError(code, message), { hint });
  REFUSALS.set(result, { code, message });
  return result;
};

/** A write the gate refused (the policy) or the person declined: told to the history. */
export type OnRefusal = (
  write: Pick<ProposedWrite, 'tool' | 'args'>,
  refusal: { outcome: 'refused' | 'declined'; message: string },
) => void;

const CONFIRM_KEY = 'confirm';
/** The form the person is shown, as it goes on the wire (both eras take it as it is). */
const confirmSchema = {
  type: 'object' as const,
  properties: {
    send: { type: 'boolean' as const, description: 'Send this request to the service' },
  },
  required: ['send'],
};

/** How long a person may take to answer a confirmation, as the SDK allows a round. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

const declined = (tool: string) =>
  refused(
    'declined',
    `the person did not accept the ${tool} request; nothing was sent`,
    'Ask the person what to change, or leave it.',
  );

/** The arguments, in one canonical form, hashed: what a confirmation is bound to. */
function argsDigest(tool: string, args: Record<string, unknown>): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
          )
        : value;
  return createHash('sha256')
    .update(JSON.stringify([tool, canonical(args)]))
    .digest('base64url');
}

/** The capabilities a 2026-era request carries itself; undefined: they came with initialize. */
function perRequest(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/** The client can show a form to its person (form-mode elicitation). */
function canElicit(ctx: ServerContext, legacy: ClientCapabilities | undefined): boolean {
  const declared = perRequest(ctx) ?? legacy;
  const elicitation = declared?.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined) return false;
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined;
}

/**
 * Decides whether a write goes: off unless the server was started with --allow-writes and the
 * profile allows agent writes; with `confirm`, only once the person accepted it through MCP
 * elicitation, shown the exact request and its Idempotency-Key. A client that cannot ask is
 * refused (fail closed). The confirmation rides the protocol's input-required rounds: the
 * token shown travels in the round's state, signed by this server and bound to the arguments,
 * so what is sent is what was shown.
 */
export class WriteGate {
  private readonly secret = randomBytes(32);
  /** The confirmations already used: each sends its write once. */
  private readonly spent = new Set<string>();

  constructor(
    private readonly policy: WritePolicy,
    private readonly onRefusal: OnRefusal = () => undefined,
    /** Aborted once no answer can come: the client's input ended, or the server is stopping. */
    private readonly answerable: AbortSignal = new AbortController().signal,
  ) {}

  /**
   * The gate as one server instance uses it: its secret and used confirmations are the
   * process's, the client's capabilities that instance's (`legacy`: what a 2025-era client
   * declared at initialize; a 2026 one declares them with each request).
   */
  forServer(legacy: () => ClientCapabilities | undefined): ServerGate {
    return {
      admit: async (ctx, write) => {
        const admission = await this.admit(ctx, write, legacy());
        const refusal = 'result' in admission ? REFUSALS.get(admission.result) : undefined;
        if (refusal !== undefined) {
          const outcome = refusal.code === 'declined' ? 'declined' : 'refused';
          this.onRefusal(write, { outcome, message: refusal.message });
        }
        return admission;
      },
    };
  }

  /** Refuses every write before anything else is asked: why, and what the person can do. */
  refusal(): CallToolResult | undefined {
    const { policy } = this;
    if (!policy.allowWrites) {
      return refused(
        'writes_off',
        'this server was started without --allow-writes: it only reads; nothing was sent',
        'Ask the person who runs it to start petstore mcp --allow-writes, or use dry_run to see the request.',
      );
    }
    if (policy.agentWrites === 'deny') {
      return refused(
        'writes_denied',
        `${policy.label} does not allow agent writes (agent-writes deny); nothing was sent`,
        `Only the person can change it: petstore profile set ${policy.profile} --agent-writes confirm`,
      );
    }
    return undefined;
  }

  private async admit(
    ctx: ServerContext,
    write: ProposedWrite,
    legacy: ClientCapabilities | undefined,
  ): Promise<Admission> {
    const off = this.refusal();
    if (off) return { result: off };
    const digest = argsDigest(write.tool, write.args);
    const earlier = this.readState(ctx.mcpReq.requestState(), digest);
    const token = write.token ?? earlier?.token ?? crypto.randomUUID();
    if (this.policy.agentWrites === 'allow') return { token };
    const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY);
    if (answer.kind === 'elicit' && earlier?.token === token && !this.spent.has(earlier.nonce)) {
      if (answer.action === 'accept' && answer.content?.send === true) {
        // One confirmation, one send: the same answer sent again is asked again.
        this.spent.add(earlier.nonce);
        return { token };
      }
      return { result: declined(write.tool) };
    }
    if (!canElicit(ctx, legacy)) {
      return {
        result: refused(
          'cannot_confirm',
          `${this.policy.label} asks the person to confirm each agent write (agent-writes confirm), and this client cannot ask (no form elicitation); nothing was sent`,
          `Use a client that supports elicitation, or the person can allow writes: petstore profile set ${this.policy.profile} --agent-writes allow`,
        ),
      };
    }
    // A 2025-era client (it declared its capabilities at initialize, not with this request) is
    // asked here and now: the SDK would otherwise ask it on our behalf and word a failure its
    // own way, without saying that nothing was sent.
    if (perRequest(ctx) === undefined) return this.askNow(ctx, write, token);
    return {
      result: inputRequired({
        inputRequests: {
          [CONFIRM_KEY]: inputRequired.elicit({
            message: await write.describe(token),
            requestedSchema: confirmSchema,
          }),
        },
        requestState: this.mintState(digest, token),
      }),
    };
  }

  /** The person's answer, asked with an elicitation request of this call's own. */
  private async askNow(
    ctx: ServerContext,
    write: ProposedWrite,
    token: string,
  ): Promise<Admission> {
    const message = await write.describe(token);
    let answer: { action: string; content?: Record<string, unknown> | undefined };
    try {
      answer = await ctx.mcpReq.send(
        {
          method: 'elicitation/create',
          params: { mode: 'form', message, requestedSchema: confirmSchema },
        },
        {
          signal: AbortSignal.any([ctx.mcpReq.signal, this.answerable]),
          timeout: CONFIRM_TIMEOUT_MS,
        },
      );
    } catch (error) {
      // Cancelled: the call is over, and the tool says so in its own way.
      if (ctx.mcpReq.signal.aborted) throw error;
      // No answer can come: refused at once, so the server ends now, not in ten minutes.
      if (this.answerable.aborted) {
        return {
          result: refused(
            'cannot_confirm',
            `the server stopped before the person answered (its input ended, or a signal); the ${write.tool} request was not sent`,
            'Call it again once the server runs again; the person will be asked then.',
          ),
        };
      }
      // The client's words, as text from a service is shown: whole escapes gone, and short.
      const why = snippet(withoutEscapes(error instanceof Error ? error.message : String(error)));
      return {
        result: refused(
          'cannot_confirm',
          `the client could not ask the person to confirm the ${write.tool} request (${why}); nothing was sent`,
          'Call it again once the client can ask, or tell the person what you meant to send.',
        ),
      };
    }
    if (answer.action === 'accept' && answer.content?.send === true) return { token };
    return { result: declined(write.tool) };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  private mintState(digest: string, token: string): string {
    const nonce = randomBytes(16).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ digest, token, nonce })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The token of an earlier round of this very call, if its state is this server's own. */
  private readState(state: unknown, digest: string): { token: string; nonce: string } | undefined {
    if (typeof state !== 'string') return undefined;
    const [payload, signature] = state.split('.');
    if (payload === undefined || signature === undefined) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        digest?: unknown;
        token?: unknown;
        nonce?: unknown;
      };
      return parsed.digest === digest &&
        typeof parsed.token === 'string' &&
        typeof parsed.nonce === 'string'
        ? { token: parsed.token, nonce: parsed.nonce }
        : undefined;
    } catch {
      return undefined;
    }
  }
}
