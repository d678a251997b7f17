import * as z from 'zod';
import { parseInt64 } from '../core/int64.js';
import { GET_PET_REMOVAL_DATE, type Pet } from '../core/interface.js';
import { StopController } from '../core/stop.js';
import { getPet, GET_PET_DEPRECATION } from '../operations/pets/get.js';
import { hintForAgent } from './wording.js';
import { listPets, type ListEnd } from '../operations/pets/list.js';
import { runSmokeRounds } from '../operations/smoke/run.js';
import { agentPet, agentValue, type AgentRecord } from './agent-data.js';
import type { McpDeps, ToolShelf } from './deps.js';
import { dataResult, errorResult } from './results.js';
import {
  AGENT_LIST_CEILING,
  DATA_NOT_INSTRUCTIONS,
  getPetInput,
  getPetOutput,
  listPetsInput,
  listPetsOutput,
  smokeOutput,
} from './schemas.js';

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  // The tools reach only this profile's Animal Store: a closed domain, not the open world.
  openWorldHint: false,
};

/** The tools that only read: list_pets, get_pet, smoke. */
export function registerReadTools(server: ToolShelf, deps: McpDeps): void {
  const { label } = deps.policy;
  server.registerTool(
    'list_pets',
    {
      title: 'List pets',
      description: `List the pets of ${label} (GET /pets), optionally by status; one page unless max_items or all asks for more. ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: listPetsInput,
      outputSchema: listPetsOutput,
      annotations: { title: 'List pets', ...READ_ONLY },
    },
    async (args) => {
      try {
        const pets: Pet[] = [];
        const maxItems = args.max_items ?? (args.all === true ? AGENT_LIST_CEILING : undefined);
        const outcome = await listPets(
          { client: await deps.client() },
          { status: args.status, limit: args.limit, maxItems },
          { onPets: (page) => pets.push(...page) },
        );
        const result: AgentRecord = {
          pets: pets.map(agentPet),
          pages: outcome.pages,
          more: outcome.more,
        };
        if (outcome.end !== undefined) result.note = listEndNote(outcome.end, args);
        return dataResult(result);
      } catch (error) {
        return errorResult(error);
      }
    },
  );

  server.registerTool(
    'get_pet',
    {
      title: 'Get a pet (deprecated)',
      description: `Get one pet of ${label} by its id (GET /pets/{petId}). Deprecated: the service removes this operation on ${GET_PET_REMOVAL_DATE}; prefer list_pets. ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: getPetInput,
      outputSchema: getPetOutput,
      annotations: { title: 'Get a pet (deprecated)', ...READ_ONLY },
    },
    async (args) => {
      try {
        const pet = await getPet(
          { client: await deps.client() },
          parseInt64(args.pet_id, 'pet_id'),
        );
        return dataResult({
          pet: agentPet(pet),
          deprecation: {
            deprecated: true,
            removalDate: GET_PET_REMOVAL_DATE,
            message: hintForAgent(GET_PET_DEPRECATION),
          },
        });
      } catch (error) {
        return errorResult(error);
      }
    },
  );

  server.registerTool(
    'smoke',
    {
      title: 'Smoke check',
      description: `Run the read-only smoke checks against ${label}: does the service answer as its interface says (listing, paging, errors, a refused key, the deprecated get)? Adds nothing. ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: z.strictObject({}),
      outputSchema: smokeOutput,
      annotations: { title: 'Smoke check', ...READ_ONLY },
    },
    async () => {
      const stop = new StopController(
        { onSignal: () => () => undefined },
        {
          onFirst: () => undefined,
          onSecond: () => new Error('stopped'),
        },
      );
      try {
        const outcome = await runSmokeRounds(
          {
            client: await deps.client(),
            unauthenticated: await deps.unauthenticated(),
            target: { quickstartUrl: deps.quickstartUrl },
            stop,
            interrupted: new Promise(() => undefined),
          },
          { allowWrites: false, maxLatencyMs: undefined, repeat: 1, everyMs: undefined },
          () => undefined,
        );
        // The writing checks are the command line's, asked for there (smoke --allow-writes).
        const checks = (outcome.results[0] ?? []).map(({ needs, ...check }) =>
          agentValue(
            needs === undefined
              ? check
              : { ...check, detail: `${check.detail}: this tool only reads` },
          ),
        );
        const passed =
          !outcome.keyRefused && !(outcome.results[0] ?? []).some((c) => c.outcome === 'fail');
        return dataResult({ passed, checks });
      } catch (error) {
        return errorResult(error);
      } finally {
        stop.dispose();
      }
    },
  );
}

/** Where the list ended, in the tool's own words (its arguments, not the command line's flags). */
function listEndNote(
  end: ListEnd,
  args: { all?: boolean | undefined; max_items?: number | undefined },
): string {
  const pets = (count: number) => `${count} pet${count === 1 ? '' : 's'}`;
  switch (end.kind) {
    case 'more':
      return `Showing the first ${pets(end.shown)}; the service has more. Ask with all: true, or max_items N.`;
    case 'stopped':
      // all: true is max_items at the ceiling one call returns.
      return args.max_items === undefined
        ? `Stopped at ${pets(end.maxItems)}, the most one call returns; the service has more. Narrow by status; for every pet, the person who runs petstore can use the command line: petstore pets list --all.`
        : `Stopped at max_items ${end.maxItems}; the service has more.`;
    case 'unlinked':
      return `The service sent no Link rel="next" after a full page of ${pets(end.shown)}: if it holds more, it does not say how to page to them, so only this page was listed.`;
  }
}
