import type { ServiceTarget } from '../api/create-client.js';

/** Where requests go and with which key, after profile and precedence rules are applied. */
export interface Target extends ServiceTarget {
  keySource: 'env' | 'config' | 'sandbox' | 'none';
  /** Stops what serving this target needed (the embedded sandbox). */
  close?: () => Promise<void>;
}
