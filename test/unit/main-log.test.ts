// What main swallows is said: warnings always, debug lines only when asked for, with the error's words.
import { afterEach, describe, expect, it } from 'vitest'
import { logSink, swallowed } from '../../src/main/log/main-log'

const original = logSink.write
afterEach(() => {
  logSink.write = original
  delete process.env['EXPORT_EXPLORER_DEBUG']
})

describe('swallowed', () => {
  it('logs a warning always and a debug line only with EXPORT_EXPLORER_DEBUG', () => {
    const lines: string[] = []
    logSink.write = (l) => void lines.push(l)
    swallowed('scanning the cache', 'warn')(new Error('EACCES: permission denied'))
    swallowed('removing a temp file')(new Error('ENOENT'))
    expect(lines).toEqual(['export-explorer warn: scanning the cache: EACCES: permission denied\n'])
    process.env['EXPORT_EXPLORER_DEBUG'] = '1'
    swallowed('removing a temp file')('gone')
    expect(lines.at(-1)).toBe('export-explorer debug: removing a temp file: gone\n')
  })
})
