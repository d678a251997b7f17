import type { Transport } from './http.js';
import type { ProxySettings } from './proxy-settings.js';
import type { Redact } from '../core/redaction/index.js';
import type { TraceHeaders } from '../core/trace-context.js';
import type { WriteLabel, WriteRecord } from './write-record.js';

/**
 * What a client is made from, each fact defined once: where it sends (ServiceTarget) and how
 * it behaves (ClientSettings). A client takes both whole; a new setting is one field here and
 * the line that gives it a value.
 */

/** Where a client sends its requests, and with which key. */
export interface ServiceTarget {
  /** Profile name, for hints when a URL is missing. */
  profile: string;
  /** What messages name as the target ("profile staging", or the URL --base-url gave). */
  label?: string | undefined;
  /** False for a profile whose URLs a user cannot set (the built-in sandbox profile). */
  urlsSettable?: boolean | undefined;
  baseUrl?: string | undefined;
  quickstartUrl?: string | undefined;
  apiKey: string | undefined;
  /** A local socket the base URL's origin is reached through (the embedded sandbox). */
  socketPath?: string | undefined;
}

/** A target with its key: the only kind a client is made for. */
export type KeyedTarget = ServiceTarget & { apiKey: string };

export interface DeprecationNotice {
  method: string;
  path: string;
  deprecation?: string | undefined;
  sunset?: string | undefined;
}

/** How a client behaves, whatever its target. */
export interface ClientSettings {
  timeoutSeconds: number;
  retries: number;
  /**
   * The longest the service may ask the client to wait (Retry-After), in all, before it stops
   * with TryLaterError; default MAX_RETRY_AFTER_MS.
   */
  maxWaitMs?: number | undefined;
  userAgent: string;
  /** The trace each request carries (traceparent, tracestate); none when absent. */
  trace?: TraceHeaders | undefined;
  /** Send the key over plain http to a host other than this machine (checked at creation). */
  allowInsecureHttp?: boolean | undefined;
  /** Receives the verbose lines of each exchange, credentials redacted; absent when quiet. */
  log?: ((line: string) => void) | undefined;
  /** Sends the requests; default: undici with this client's timeout. Its giver closes it. */
  transport?: Transport | undefined;
  /** The proxies to send through (proxySettingsFromEnv); none when absent. */
  proxy?: ProxySettings | undefined;
  onDeprecation?: ((notice: DeprecationNotice) => void) | undefined;
  /**
   * The process ends when this client's run does (the command line): at close, connections
   * with nothing in flight are left for the exit to end (undici holds idle ones so that they
   * keep no process alive) instead of being destroyed, which cost about 2 ms of every command.
   */
  endsWithProcess?: boolean | undefined;
  /**
   * Masks the secrets the caller knows of in every response, as it arrives; the client's own
   * key is always masked (by itself when this is absent).
   */
  redact?: Redact | undefined;
  /**
   * Told of every write this client sends, once, when its fate is known (answered, unknown or
   * never sent): what a record of writes is kept from. It must not throw; if it does, the
   * write's own result still stands and the failure goes to the verbose log.
   */
  onWrite?: ((write: WriteRecord) => void) | undefined;
  sleep?: ((ms: number) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
  now?: (() => number) | undefined;
}

export type ClientOptions = KeyedTarget & ClientSettings;

/** Options of every write (POST). */
export interface WriteOptions {
  /** Sent as Idempotency-Key; a new random UUID when absent. */
  idempotencyKey?: string | undefined;
  /**
   * When no answer comes after the request may have been sent, or the service answers 5xx,
   * send it again with the same key (up to the client's retries). Only when the user asked: a
   * service that ignores the key may then do the write twice.
   */
  resendWhenUnknown?: boolean | undefined;
  /**
   * Called when the service says its answer is a replay of an earlier send with the key; with
   * whether this call had itself sent the write before without an answer (or with a 5xx).
   */
  onReplayed?: ((info: { afterUnansweredSend: boolean }) => void) | undefined;
  /** Given the Date header of the answer, when it has one: the service's clock. */
  onServiceDate?: ((date: string) => void) | undefined;
  /** What the write is, for the record of writes (onWrite): its operation, batch and record. */
  label?: WriteLabel | undefined;
}
