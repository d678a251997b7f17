import type { RefusedWrite } from '../history/entry.js';
import type { McpServer } from '@modelcontextprotocol/server';
import type { PetstoreClient } from '../api/client.js';
import type { StopSignal } from '../core/io.js';
import type { SignalSource } from '../core/stop.js';
import type { ToolName } from './tool-names.js';
import type { WritePolicy } from './write-gate.js';

/** What the agent interface runs on: one profile's service, fixed when the server starts. */
export interface McpDeps {
  policy: WritePolicy;
  /** The tools offered (`--tools`; every one unless the person chose). */
  tools: ReadonlySet<ToolName>;
  /** The service, as a journal names it (a batch resumed must reach the same one). */
  service: string;
  /** Where `send_message` goes, if the profile has one (smoke skips that check without). */
  quickstartUrl: string | undefined;
  /** The API client of the profile, with its key (which no tool ever shows). */
  client(): Promise<PetstoreClient>;
  /** The same service with a key it must refuse: for smoke. */
  unauthenticated(): Promise<PetstoreClient>;
  /** add_pets' journals: the data folder (locks) and the journals folder. */
  dataDir: string;
  journalsDir: string;
  /**
   * Ctrl-C and SIGTERM: the first stops the server (no new call; the writes in flight finish
   * and are journaled), a second ends it at once (`raise`).
   */
  signals: SignalSource;
  /** Ends the process as the signal would, once its handler is released (absent in tests). */
  raise?: ((signal: StopSignal) => void) | undefined;
  /** Aborted once the server is stopping (a signal): a tool starts nothing new after it. */
  stopping: AbortSignal;
  /** Lines for the person who runs the server (stderr). */
  log(line: string): void;
  version: string;
  /** Runs a write, counted until it settles: the server ends only once none is in flight. */
  write<T>(task: () => Promise<T>): Promise<T>;
  /** Resolves once no write is in flight. */
  settle(): Promise<void>;
  /** Names the agent's client for the history of writes, asked as each write is recorded. */
  recordWritesBy?: ((client: () => string | undefined) => void) | undefined;
  /** Records a write the gate refused or the person declined (nothing was sent). */
  recordRefusal?: ((refusal: RefusedWrite) => void) | undefined;
}

/** Where a tools file puts its tools: the server, offering only those the person chose. */
export type ToolShelf = Pick<McpServer, 'registerTool'>;
