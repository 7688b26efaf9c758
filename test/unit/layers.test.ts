// The layering rule of eslint.config.js, checked for every pair: each planted import a layer may not make is
// refused by ESLint itself (lintText on a file of that layer), and the imports it may make pass.
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function refusals(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

const use = (spec: string): string => `import * as m from '${spec}'\nexport const used = m\n`

describe('layers held by lint', () => {
  const refused: [string, string][] = [
    ['src/renderer/src/tables/x.ts', '../../../main/workspace/workspace'],
    ['src/renderer/src/tables/x.ts', '../../../cli/export-explorer'],
    ['src/renderer/src/tables/x.ts', '../../../preload/index'],
    ['src/renderer/src/tables/x.ts', 'node:fs/promises'],
    ['src/renderer/src/tables/x.ts', 'electron'],
    ['src/main/engine/x.ts', '../../renderer/src/app'],
    ['src/main/engine/x.ts', '../../cli/serve'],
    ['src/main/engine/x.ts', 'electron'],
    ['src/cli/x.ts', '../renderer/src/app'],
    ['src/cli/x.ts', 'electron'],
    ['src/preload/x.ts', '../main/workspace'],
    ['src/shared/x.ts', '../main/workspace'],
    ['src/shared/x.ts', 'node:path'],
    ['src/shared/x.ts', 'electron']
  ]
  for (const [file, spec] of refused)
    it(`refuses ${spec} in ${file.split('/').slice(0, 2).join('/')}`, async () => {
      expect(await refusals(file, use(spec))).toHaveLength(1)
    })

  const allowed: [string, string][] = [
    ['src/renderer/src/tables/x.ts', '../../../shared/catalog'],
    ['src/main/engine/x.ts', '../../shared/catalog'],
    ['src/main/engine/x.ts', 'node:fs/promises'],
    ['src/cli/x.ts', '../main/engine/native-engine'],
    ['src/main/index.ts', 'electron'],
    ['src/preload/index.ts', 'electron']
  ]
  for (const [file, spec] of allowed)
    it(`allows ${spec} in ${file}`, async () => {
      expect(await refusals(file, use(spec))).toEqual([])
    })
})
