import * as z from 'zod';
import { parseInt64 } from '../core/int64.js';
import { GET_PET_REMOVAL_DATE, type Pet } from '../core/interface.js';
import { StopController } from '../core/stop.js';
import { getPet, GET_PET_DEPRECATION } from '../operations/pets/get.js';
import { listPets } from '../operations/pets/list.js';
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
        const note = listNote(args, outcome.more, pets.length);
        if (note !== undefined) result.note = note;
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
            message: GET_PET_DEPRECATION.replace(
              'use "petstore pets list --status STATUS" instead',
              'use list_pets instead',
            ),
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
        const checks = (outcome.results[0] ?? []).map((check) => agentValue(check));
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
function listNote(
  args: { all?: boolean | undefined; max_items?: number | undefined },
  more: boolean,
  count: number,
): string | undefined {
  if (!more) return undefined;
  if (args.all === true && args.max_items === undefined) {
    return `Stopped at ${count} pets, the most one call returns; the service has more. Narrow by status, or use the command line (petstore pets list --all) for every pet.`;
  }
  if (args.max_items !== undefined)
    return `Stopped at max_items ${args.max_items}; the service has more.`;
  return `Showing the first ${count} pets; the service has more. Ask with all: true, or max_items N.`;
}
