// What a user reads when something is thrown: the words, whatever was thrown (an Error, a string, a worker's plain object).
import { describe, expect, it } from 'vitest'
import { errorMessage } from '../../src/shared/error-message'

describe('errorMessage', () => {
  it('gives the words of an Error, a string, an object with a message, and JSON for anything else', () => {
    expect(errorMessage(new TypeError('bad type'))).toBe('bad type')
    expect(errorMessage('said plainly')).toBe('said plainly')
    expect(errorMessage({ message: 'from a worker', code: 7 })).toBe('from a worker')
    expect(errorMessage({ code: 7 })).toBe('{"code":7}')
    expect(errorMessage(undefined)).toBe('undefined')
    const loop: Record<string, unknown> = {}
    loop['self'] = loop
    expect(errorMessage(loop)).toBe('[object Object]')
  })
})
