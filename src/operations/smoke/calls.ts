import type { AnyRequest, PetstoreClient, RawAnswer } from '../../api/client.js';
import { describeViolations, listViolations, violations, type Shape } from '../../core/shape.js';
import { ERROR_BODY } from '../../core/interface.js';
import type { HttpMethod } from '../../api/http.js';
import type { WriteLabel } from '../../api/write-record.js';
import { firstDuplicateKey } from '../../core/json.js';
import { snippet } from '../../core/sanitize.js';

/** A check's verdict that the deployment breaks the interface. */
export class CheckFailed extends Error {}

/** Not a failure: what the service does where the interface says nothing ("not shown"). */
export class CheckInfo extends Error {}

export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** The interface's media type: application/json, in UTF-8 if a charset is named at all. */
const JSON_TYPE = /^application\/json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;
/** An error may also come as RFC 9457 problem details, still JSON with the Error body. */
const ERROR_JSON_TYPE = /^application\/(?:problem\+)?json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;

/** "GET /v1/pets?limit=1": how a message names the request. */
export function requestName(method: HttpMethod, url: URL): string {
  return `${method} ${url.pathname}${url.search}`;
}

/**
 * The requests of one check, each answer checked against what the interface says of every
 * answer: a body is JSON with a JSON content type, and an error status carries an Error body
 * (`code`, `message`, `status` equal to the HTTP status). A violation names the request, the
 * field and what came back (sanitised; secrets are masked as the answer arrives).
 */
export class SmokeCalls {
  constructor(
    private readonly client: PetstoreClient,
    /** Told when the service answers 401: the key was refused. */
    private readonly onKeyRefused?: () => void,
  ) {}

  /** `expected`: what the write is sent to see, for the history (WriteLabel.expected). */
  async call(
    method: HttpMethod,
    path: string,
    options: Partial<AnyRequest> = {},
    expected?: WriteLabel['expected'] | Omit<WriteLabel, 'operation'>,
  ): Promise<RawAnswer> {
    const about = typeof expected === 'string' ? { expected } : expected;
    const label = about === undefined ? undefined : { operation: 'smoke', ...about };
    const answer = await this.client.exchange({ method, path, ...options }, { label });
    // A request sent without the key (anonymous) is refused by design: not the key's refusal.
    if (answer.status === 401 && options.anonymous !== true) this.onKeyRefused?.();
    const name = requestName(method, answer.url);
    const encoding = answer.headers['content-encoding'];
    expectThat(
      encoding === undefined || /^\s*identity\s*$/i.test(encoding),
      `${name}: the ${answer.status} answer is encoded (Content-Encoding: ${snippet(encoding ?? '', 40)}), which petstore never asks for`,
    );
    expectThat(
      !answer.notUtf8,
      `${name}: the ${answer.status} answer is not valid UTF-8, which JSON must be (RFC 8259)`,
    );
    if (answer.text !== '') {
      const type = answer.headers['content-type'];
      const allowed = answer.status >= 400 ? ERROR_JSON_TYPE : JSON_TYPE;
      expectThat(
        type !== undefined && allowed.test(type),
        `${name}: the ${answer.status} answer's content type is ${type === undefined ? 'missing' : snippet(type, 60)}, not application/json (UTF-8)`,
      );
      expectThat(
        answer.json !== undefined,
        `${name}: the ${answer.status} answer is not JSON: "${snippet(answer.text, 80)}"`,
      );
      // JSON.parse keeps the last of a key given twice; another client may keep the first.
      const twice = firstDuplicateKey(answer.text);
      expectThat(
        twice === undefined,
        `${name}: the ${answer.status} answer gives the key "${snippet(twice ?? '', 40)}" twice in one object`,
      );
    }
    if (answer.status >= 400) {
      const found = violations(ERROR_BODY, answer.json);
      const error = answer.json as { status?: unknown } | undefined;
      if (found.length === 0 && error?.status !== answer.status) {
        found.push({
          path: '$.status',
          problem: `is ${String(error?.status)}, not the HTTP status`,
        });
      }
      expectThat(
        found.length === 0,
        `${name}: the ${answer.status} answer is no Error body: ${describeViolations(found)}`,
      );
    }
    return answer;
  }
}

/** Fails unless the answer has this status (or one of these). */
export function expectStatus(
  answer: RawAnswer,
  wanted: number | readonly number[],
  method: HttpMethod,
): void {
  const statuses = typeof wanted === 'number' ? [wanted] : wanted;
  if (statuses.includes(answer.status)) return;
  const error = answer.json as { code?: unknown; message?: unknown } | undefined;
  const said =
    typeof error?.code === 'string'
      ? ` (${snippet(error.code, 40)}: ${snippet(String(error.message), 80)})`
      : '';
  throw new CheckFailed(
    `${requestName(method, answer.url)} answered ${answer.status}${said}, not ${statuses.join(' or ')}`,
  );
}

/** Fails with every way the body breaks the shape (a list of it, with `list`). */
export function expectShape(
  answer: RawAnswer,
  shape: Shape,
  method: HttpMethod,
  what: string,
  list = false,
): void {
  const found = list ? listViolations(shape, answer.json) : violations(shape, answer.json);
  expectThat(
    found.length === 0,
    `${requestName(method, answer.url)}: the answer is not ${what}: ${describeViolations(found)}`,
  );
}
