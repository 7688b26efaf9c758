// Lint rules, including the layering rule: src/shared imports nothing of ours and no Node or Electron.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'resources/demo-bucket/**', 'test-results/**', 'scratch/**', 'test/gcs-emulator/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
  {
    files: ['src/main/**/*.ts', 'src/cli/**/*.ts', 'src/renderer/**/*.{ts,tsx}'],
    ignores: ['src/main/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: "Only the thin shell (src/main/index.ts) imports 'electron'; services stay plain Node." }] }
      ]
    }
  }
)
