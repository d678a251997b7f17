import type { ESLint } from 'eslint';

export const LAYERS: Record<string, { may: string[]; packages: string[] }>;
export function zoneOf(pathInSrc: string): string | undefined;
export const layersPlugin: ESLint.Plugin;
