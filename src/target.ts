/** Where requests go and with which key, after profile and precedence rules are applied. */
export interface Target {
  profile: string;
  baseUrl: string | undefined;
  quickstartUrl: string | undefined;
  apiKey: string | undefined;
  keySource: 'env' | 'config' | 'sandbox' | 'none';
  /** Stops what serving this target needed (the embedded sandbox). */
  close?: () => Promise<void>;
}
