import { describe, expect, it } from 'vitest';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { errorOfResult } from '../helpers/mcp-client.js';
import { WriteGate, type ProposedWrite } from '../../src/mcp/write-gate.js';

const CONFIRMING = {
  label: 'profile staging',
  profile: 'staging',
  allowWrites: true,
  agentWrites: 'confirm',
} as const;

/** A tool call's context as the SDK hands it over: the round's state and answers. */
function round(options: { state?: string; answer?: unknown; elicitation?: boolean } = {}) {
  return {
    mcpReq: {
      requestState: () => options.state,
      inputResponses: options.answer === undefined ? undefined : { confirm: options.answer },
      envelope: {
        'io.modelcontextprotocol/clientCapabilities':
          options.elicitation === false ? {} : { elicitation: { form: {} } },
      },
    },
  } as unknown as ServerContext;
}

const write = (args: Record<string, unknown>): ProposedWrite => ({
  tool: 'add_pet',
  args,
  token: undefined,
  describe: (token) => Promise.resolve(`send with ${token}`),
});

type Asked = {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { params: { message: string } }>;
};

describe('the write gate', () => {
  it('sends only what the person accepted, with the key they were shown', async () => {
    const gate = new WriteGate(CONFIRMING).forServer(() => undefined);
    const first = await gate.admit(round(), write({ name: 'Rex' }));
    const asked = (first as { result: Asked }).result;
    const message = asked.inputRequests!.confirm!.params.message;
    const shownKey = /send with (\S+)/.exec(message)![1];
    const accepted = await gate.admit(
      round({ state: asked.requestState, answer: { action: 'accept', content: { send: true } } }),
      write({ name: 'Rex' }),
    );
    expect(accepted).toEqual({ token: shownKey });
  });

  it('takes a confirmation once: the same answer sent again is asked again, by any server instance', async () => {
    const shared = new WriteGate(CONFIRMING);
    const gate = shared.forServer(() => undefined);
    const other = shared.forServer(() => undefined);
    const asked = ((await gate.admit(round(), write({ name: 'Rex' }))) as { result: Asked }).result;
    const yes = {
      state: asked.requestState,
      answer: { action: 'accept', content: { send: true } },
    };
    // The process's instances share the secret: one's state is good at the other.
    expect(await other.admit(round(yes), write({ name: 'Rex' }))).toHaveProperty('token');
    // And what was used: the same answer again is asked again, at either.
    expect(await gate.admit(round(yes), write({ name: 'Rex' }))).not.toHaveProperty('token');
    expect(await other.admit(round(yes), write({ name: 'Rex' }))).not.toHaveProperty('token');
  });

  it('asks again, sending nothing, when the state was made for other arguments, forged or missing', async () => {
    const gate = new WriteGate(CONFIRMING).forServer(() => undefined);
    const asked = ((await gate.admit(round(), write({ name: 'Rex' }))) as { result: Asked }).result;
    const yes = { action: 'accept', content: { send: true } };
    const otherArgs = await gate.admit(
      round({ state: asked.requestState, answer: yes }),
      write({ name: 'Max' }),
    );
    const [payload] = asked.requestState!.split('.');
    const forged = await gate.admit(
      round({ state: `${payload}.AAAA`, answer: yes }),
      write({ name: 'Rex' }),
    );
    const stateless = await gate.admit(round({ answer: yes }), write({ name: 'Rex' }));
    const otherServer = await new WriteGate(CONFIRMING)
      .forServer(() => undefined)
      .admit(round({ state: asked.requestState, answer: yes }), write({ name: 'Rex' }));
    for (const admission of [otherArgs, forged, stateless, otherServer]) {
      expect(admission).not.toHaveProperty('token');
      expect((admission as { result: Asked }).result.inputRequests?.confirm).toBeDefined();
    }
  });

  it('refuses a declined form, a client that cannot ask, a denying profile and writes left off', async () => {
    const gate = new WriteGate(CONFIRMING).forServer(() => undefined);
    const asked = ((await gate.admit(round(), write({ name: 'Rex' }))) as { result: Asked }).result;
    const code = (admission: unknown) => {
      const { result } = admission as { result: CallToolResult };
      // Every client takes it: no structuredContent the output schema would refuse.
      expect(result).not.toHaveProperty('structuredContent');
      return (errorOfResult(result) as { code?: string } | undefined)?.code;
    };
    expect(
      code(
        await gate.admit(
          round({ state: asked.requestState, answer: { action: 'decline' } }),
          write({ name: 'Rex' }),
        ),
      ),
    ).toBe('declined');
    // Accepted, but "send" left unticked: no.
    expect(
      code(
        await gate.admit(
          round({
            state: asked.requestState,
            answer: { action: 'accept', content: { send: false } },
          }),
          write({ name: 'Rex' }),
        ),
      ),
    ).toBe('declined');
    expect(code(await gate.admit(round({ elicitation: false }), write({ name: 'Rex' })))).toBe(
      'cannot_confirm',
    );
    expect(
      code(
        await new WriteGate({ ...CONFIRMING, agentWrites: 'deny' })
          .forServer(() => undefined)
          .admit(round(), write({})),
      ),
    ).toBe('writes_denied');
    expect(
      code(
        await new WriteGate({ ...CONFIRMING, allowWrites: false })
          .forServer(() => undefined)
          .admit(round(), write({})),
      ),
    ).toBe('writes_off');
    expect(
      await new WriteGate({ ...CONFIRMING, agentWrites: 'allow' })
        .forServer(() => undefined)
        .admit(round(), {
          ...write({}),
          token: 'k-1',
        }),
    ).toEqual({ token: 'k-1' });
  });
});
