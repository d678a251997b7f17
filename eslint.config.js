import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/lint/layers.js';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Decoders name the type a checked value has; the check itself is the proof.
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: {
      'layers/allowed-imports': 'error',
      // A file past this is split along the seam it already has (ARCHITECTURE.md, Rules).
      'max-lines': ['error', { max: 350 }],
      'max-lines-per-function': ['error', { max: 120 }],
    },
  },
  {
    // Verbs and operations see only what they use: the parts of the run's context (RunOutput,
    // RunServices, RunState), never the whole, which main alone makes and closes.
    files: ['src/commands/**/*.ts', 'src/operations/**/*.ts', 'src/cmdutil/**/*.ts'],
    ignores: ['src/cmdutil/run-verb.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: 'context/(context|parts)\\.js$',
              importNames: ['Context'],
              message:
                'Take the parts of the context the function uses: RunOutput, RunServices, RunState.',
            },
          ],
        },
      ],
    },
  },
  {
    // Below the front ends, no text speaks the command line: an option or a command a message
    // means is a reference (core/phrase.ts) that each front end words (a flag, a tool).
    files: [
      'src/operations/**/*.ts',
      'src/bulk/**/*.ts',
      'src/api/**/*.ts',
      'src/config/**/*.ts',
      'src/core/**/*.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal[value', 'TemplateElement[value.raw'].flatMap((node) => [
          {
            selector: `${node}=/(^|[^\\w-])--[a-z]/]`,
            message: 'Name the option with option() in a phrase (core/phrase.ts), not as a flag.',
          },
          {
            selector: `${node}=/\\bpetstore (pets (list|add|get|import)|profile (list|show|set|use|remove)|auth (login|logout|status)|journal (list|show|prune)|message send|sandbox (serve|reset)|api [-/A-Za-z]|(smoke|doctor|mcp|history)\\b(?! check))/]`,
            message: 'Name the command with command() in a phrase (core/phrase.ts).',
          },
        ]),
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
);
