import type { NetworkError } from '../../core/errors.js';
import type { RawAnswer } from '../../api/client.js';
import {
  GET_PET_REMOVAL_DATE,
  LIST_LIMIT,
  MESSAGE_RECEIPT,
  PET,
  type Pet,
} from '../../core/interface.js';
import { linkTarget, BrokenLink } from '../../api/link-header.js';
import { INT64_MAX } from '../../core/int64.js';
import { stringifyJson } from '../../core/json.js';
import { PageLoopGuard } from '../page-guard.js';
import { snippet } from '../../core/sanitize.js';
import {
  CheckFailed,
  CheckInfo,
  expectShape,
  expectStatus,
  expectThat,
  requestName,
  type SmokeCalls,
} from './calls.js';

/** What smoke knows of the deployment it checks, besides its clients. */
export interface SmokeTarget {
  /** Where `message send` goes; a profile without one skips that check. */
  quickstartUrl?: string | undefined;
}

/** What a check can use: the configured client, and one holding a key the service must refuse. */
export interface SmokeEnvironment {
  calls: SmokeCalls;
  unauthenticated: SmokeCalls;
  target: SmokeTarget;
  /** A pet the service listed, for the deprecated get. */
  listed: Pet[];
  /** Pets this run created, for the checks that follow. */
  created: Pet[];
  /** The answer to the deprecated get of an unknown pet: its notice, when no pet was listed. */
  unknownPet?: RawAnswer | undefined;
  /** Why the service could not be reached, once a check found it so (run.ts). */
  unreachable?: NetworkError | undefined;
}

export interface SmokeCheck {
  name: string;
  writes: boolean;
  /**
   * Returns a short detail on success, or 'skip: why'; throws CheckFailed (or any error) to
   * fail, CheckInfo to report what the service does where the interface says nothing.
   */
  run(env: SmokeEnvironment): Promise<string>;
}

/** Pages the status filter is followed through, at most. */
const FILTER_PAGES = 5;
/** What the interface allows `limit` to be at most: no page may hold more. */
const MAX_LIMIT = LIST_LIMIT.max;
/** A value as a message shows it: JSON, or that nothing came. */
const shown = (value: unknown) => (value === undefined ? 'absent' : stringifyJson(value));
/** An HTTP-date (RFC 9110 IMF-fixdate), as Sunset (RFC 8594) must be. */
const HTTP_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
/**
 * Deprecation as RFC 9745 writes it (`@` and seconds since 1970), or as its drafts did and many
 * services still do (`true`, or an HTTP-date): anything else says nothing a client can read.
 */
const DEPRECATION_VALUE = new RegExp(`^(?:@-?\\d{1,15}|true|${HTTP_DATE.source.slice(1, -1)})$`);
/** A categoryId past 2^53: a service that rounds int64 through doubles shows it. */
const BIG_CATEGORY = 9007199254740993n;

async function list(env: SmokeEnvironment, query: string): Promise<RawAnswer> {
  const answer = await env.calls.call('GET', `/pets?${query}`);
  expectStatus(answer, 200, 'GET');
  expectShape(answer, PET, 'GET', 'a list of pets', true);
  return answer;
}

/**
 * What the service did with a request the interface leaves open: info, never a failure, but
 * an answer it gives must still be what the interface says of answers (a success a list of
 * pets; an error an Error body, checked for every answer).
 */
async function notShown(env: SmokeEnvironment, query: string): Promise<string> {
  const answer = await env.calls.call('GET', `/pets?${query}`);
  if (answer.status >= 200 && answer.status < 300) {
    expectShape(answer, PET, 'GET', 'a list of pets', true);
  }
  const error = answer.json as { code?: unknown } | undefined;
  const did =
    answer.status === 200 && Array.isArray(answer.json)
      ? `200 with ${answer.json.length} pet(s)`
      : `${answer.status}${typeof error?.code === 'string' ? ` ${error.code}` : ''}`;
  throw new CheckInfo(`${requestName('GET', answer.url)}: ${did} (the interface does not say)`);
}

const READS: SmokeCheck[] = [
  {
    name: 'list pets, limit 1',
    writes: false,
    async run(env) {
      const answer = await list(env, 'limit=1');
      const pets = answer.json as Pet[];
      expectThat(pets.length <= 1, `GET /pets?limit=1 answered ${pets.length} pets`);
      env.listed.push(...pets);
      return `${pets.length} pet(s)`;
    },
  },
  {
    name: `list pets, limit ${MAX_LIMIT}`,
    writes: false,
    async run(env) {
      const pets = (await list(env, `limit=${MAX_LIMIT}`)).json as Pet[];
      expectThat(
        pets.length <= MAX_LIMIT,
        `GET /pets?limit=${MAX_LIMIT} answered ${pets.length} pets`,
      );
      return `${pets.length} pet(s)`;
    },
  },
  {
    name: 'status filter, every page',
    writes: false,
    async run(env) {
      let answer = await list(env, `status=available&limit=${MAX_LIMIT}`);
      const guard = new PageLoopGuard();
      let pets = 0;
      for (let page = 1; ; page++) {
        const listed = answer.json as Pet[];
        const where = `${requestName('GET', answer.url)} (page ${page})`;
        const wrong = listed.filter((pet) => pet.status !== 'available');
        expectThat(
          wrong.length === 0,
          `${where}: ${wrong.length} pet(s) with another status, e.g. id ${wrong[0]?.id.toString()} "${String(wrong[0]?.status)}"`,
        );
        expectThat(
          listed.length <= MAX_LIMIT,
          `${where}: ${listed.length} pets, over limit=${MAX_LIMIT}`,
        );
        pets += listed.length;
        guard.fetched(answer.url, listed.length);
        const next = linkTarget(answer.headers.link, 'next', answer.url);
        expectThat(
          !(next instanceof BrokenLink),
          `page ${page} links a next page that is not a URL`,
        );
        if (next === undefined) return `${pets} available pet(s), ${page} page(s)`;
        if (page >= FILTER_PAGES) {
          return `${pets} available pet(s) on the first ${page} page(s); later pages not checked`;
        }
        try {
          guard.follow(next, '');
        } catch (error) {
          throw new CheckFailed(`${where}: ${(error as Error).message}`);
        }
        answer = await env.calls.call('GET', next.pathname, { url: next });
        expectStatus(answer, 200, 'GET');
        expectShape(answer, PET, 'GET', 'a list of pets', true);
      }
    },
  },
  {
    name: 'refuse a request without a key (401)',
    writes: false,
    async run({ calls }) {
      const answer = await calls.call('GET', '/pets?limit=1', { anonymous: true });
      expectStatus(answer, 401, 'GET');
      return `401 ${snippet(String((answer.json as { code: unknown }).code), 40)}`;
    },
  },
  {
    name: 'refuse an invalid key (401)',
    writes: false,
    async run({ unauthenticated }) {
      const answer = await unauthenticated.call('GET', '/pets?limit=1');
      expectStatus(answer, 401, 'GET');
      return `401 ${snippet(String((answer.json as { code: unknown }).code), 40)}`;
    },
  },
  {
    name: 'get an unknown pet (404)',
    writes: false,
    async run(env) {
      const answer = await env.calls.call('GET', `/pets/${INT64_MAX}`);
      env.unknownPet = answer;
      if (answer.status === 200) {
        // Possible (a store may hold that id), but then it must be that pet.
        expectShape(answer, PET, 'GET', 'a pet');
        const { id } = answer.json as Pet;
        expectThat(
          String(id) === String(INT64_MAX),
          `GET /pets/${INT64_MAX}: answered 200 with the pet of id ${shown(id)}`,
        );
        throw new CheckInfo(`a pet has the largest int64 id`);
      }
      expectStatus(answer, 404, 'GET');
      return `404 ${snippet(String((answer.json as { code: unknown }).code), 40)}`;
    },
  },
  { name: 'not shown: limit 0', writes: false, run: (env) => notShown(env, 'limit=0') },
  { name: 'not shown: limit 101', writes: false, run: (env) => notShown(env, 'limit=101') },
  { name: 'not shown: unknown status', writes: false, run: (env) => notShown(env, 'status=lost') },
];

const WRITES: SmokeCheck[] = [
  {
    name: 'add a pet, int64 exact',
    writes: true,
    async run(env) {
      const sent = {
        name: `petstore-smoke-${new Date().toISOString()}`,
        categoryId: BIG_CATEGORY,
        status: 'pending',
      };
      const body = stringifyJson(sent);
      const answer = await env.calls.call('POST', '/pets', { body }, 'created');
      expectStatus(answer, 201, 'POST');
      expectShape(answer, PET, 'POST', 'a pet');
      const pet = answer.json as Pet;
      env.created.push(pet);
      for (const field of ['name', 'categoryId', 'status'] as const) {
        expectThat(
          String(pet[field]) === String(sent[field]),
          `POST /pets: $.${field} came back as ${shown(pet[field])}, sent ${shown(sent[field])}`,
        );
      }
      return `id ${pet.id.toString()}`;
    },
  },
  {
    name: 'get the added pet',
    writes: true,
    async run({ calls, created }) {
      const pet = created[0];
      if (!pet) return 'skip: no pet was added';
      const answer = await calls.call('GET', `/pets/${pet.id.toString()}`);
      expectStatus(answer, 200, 'GET');
      expectShape(answer, PET, 'GET', 'a pet');
      const fetched = answer.json as Pet;
      for (const field of ['id', 'name', 'categoryId', 'status'] as const) {
        expectThat(
          shown(fetched[field]) === shown(pet[field]),
          `GET /pets/${pet.id.toString()}: $.${field} is ${shown(fetched[field])}, created as ${shown(pet[field])}`,
        );
      }
      return `id ${fetched.id.toString()}`;
    },
  },
  {
    name: 'reject a pet without categoryId (400)',
    writes: true,
    async run({ calls }) {
      const answer = await calls.call(
        'POST',
        '/pets',
        { body: '{"name":"petstore-smoke-invalid"}' },
        'refused',
      );
      expectStatus(answer, 400, 'POST');
      return `400 ${snippet(String((answer.json as { code: unknown }).code), 40)}`;
    },
  },
  {
    name: 'quickstart message',
    writes: true,
    async run({ calls, target }) {
      if (!target.quickstartUrl) return 'skip: the profile has no quickstart URL';
      const message = 'petstore smoke check';
      // Recorded as a message is: queued, its length only.
      const answer = await calls.call(
        'POST',
        'quickstart:/messages',
        { body: stringifyJson({ message }) },
        { expected: 'queued', length: message.length },
      );
      expectStatus(answer, [200, 201, 202], 'POST');
      expectShape(answer, MESSAGE_RECEIPT, 'POST', 'a message receipt');
      const receipt = answer.json as { id: string; message: string; status: string };
      expectThat(
        receipt.message === message,
        `POST /messages: $.message came back as ${stringifyJson(receipt.message)}`,
      );
      return `${receipt.id} ${receipt.status}`;
    },
  },
];

/** Run after the writes: with --allow-writes, it can get the pet they added. */
const DEPRECATED: SmokeCheck[] = [
  {
    name: 'deprecated get: notice and sunset',
    writes: false,
    async run(env) {
      const pet = env.listed[0] ?? env.created[0];
      // No pet to get: the same operation's answer for an unknown pet carries the notice too.
      let answer = env.unknownPet;
      if (pet) {
        answer = await env.calls.call('GET', `/pets/${pet.id.toString()}`);
        expectStatus(answer, 200, 'GET');
        expectShape(answer, PET, 'GET', 'a pet');
        const { id } = answer.json as Pet;
        expectThat(
          String(id) === pet.id.toString(),
          `GET /pets/${pet.id.toString()}: answered the pet of id ${shown(id)}`,
        );
      }
      if (!answer) return 'skip: no pet to get, and the unknown-pet check did not run';
      const { deprecation, sunset } = answer.headers;
      const name = requestName('GET', answer.url);
      expectThat(
        deprecation !== undefined,
        `${name}: no Deprecation header (the operation is deprecated)`,
      );
      expectThat(
        DEPRECATION_VALUE.test(deprecation.trim()),
        `${name}: Deprecation is ${snippet(deprecation, 60)}, not @seconds, true or an HTTP date`,
      );
      expectThat(
        sunset !== undefined,
        `${name}: no Sunset header (it is removed on ${GET_PET_REMOVAL_DATE})`,
      );
      expectThat(
        HTTP_DATE.test(sunset.trim()),
        `${name}: Sunset is no HTTP date: ${snippet(sunset, 60)}`,
      );
      const date = new Date(sunset).toISOString().slice(0, 10);
      expectThat(
        date === GET_PET_REMOVAL_DATE,
        `${name}: Sunset says ${sunset}, the interface ${GET_PET_REMOVAL_DATE}`,
      );
      return `Deprecation: ${deprecation}; Sunset: ${sunset}`;
    },
  },
];

export const SMOKE_CHECKS: SmokeCheck[] = [...READS, ...WRITES, ...DEPRECATED];
