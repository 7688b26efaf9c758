// Lint rules, including the layering rule: src/shared imports nothing of ours and no Node or Electron.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'resources/demo-bucket/**', 'test-results/**', 'scratch/**', 'test/gcs-emulator/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The two rules of hooks; the React Compiler's further checks (also in the plugin's preset) are not taken yet.
    files: ['src/renderer/**/*.tsx', 'test/e2e/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' }
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node }
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'electron', '@duckdb/*'], message: 'src/shared is pure: no I/O, no Node, no Electron.' },
            { group: ['../main/*', '../renderer/*', '../cli/*', '../preload/*', '../../*'], message: 'src/shared imports nothing outside src/shared.' }
          ]
        }
      ]
    }
  },
  // The layers, for every pair (VS Code's layer check is the model): renderer → shared, preload → shared,
  // main → shared, cli → main → shared; only the thin shell (src/main/index.ts) and the preload import 'electron'.
  layer('src/renderer/**/*.{ts,tsx}', [
    { group: ['**/main/**', '**/cli/**', '**/preload/**'], message: 'The renderer reaches main only through the contract in src/shared.' },
    { group: ['node:*', 'fs', 'path', 'os', 'child_process', '@duckdb/node-api'], message: 'The renderer runs in a browser: no Node modules.' }
  ]),
  layer(
    'src/preload/**/*.ts',
    [{ group: ['**/main/**', '**/cli/**', '**/renderer/**'], message: 'The preload exposes the contract of src/shared only.' }],
    true
  ),
  layer(
    ['src/main/**/*.ts'],
    [{ group: ['**/renderer/**', '**/cli/**', '**/preload/**'], message: 'Main never imports the renderer, the preload or the CLI.' }]
  ),
  layer(['src/cli/**/*.ts'], [{ group: ['**/renderer/**', '**/preload/**'], message: 'The CLI runs main services over the core, never the renderer.' }]),
  {
    files: ['src/main/index.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/renderer/**', '**/cli/**', '**/preload/**'], message: 'The shell wires main only.' }] }]
    }
  }
)

/** The imports a layer may not make; 'electron' is refused everywhere but in the shell and the preload. */
function layer(files, patterns, electronAllowed = false) {
  const electron = { name: 'electron', message: "Only the thin shell (src/main/index.ts) and the preload import 'electron'; services stay plain Node." }
  return {
    files: Array.isArray(files) ? files : [files],
    ignores: electronAllowed ? [] : ['src/main/index.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns, ...(electronAllowed ? {} : { paths: [electron] }) }] }
  }
}
