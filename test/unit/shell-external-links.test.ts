// Which links leave the app for the user's browser: https documentation of the providers only, checked on
// the parsed URL; window.open never makes a window.
import { describe, expect, it } from 'vitest'
import { allowedExternalUrl, windowOpenDecision } from '../../src/main/shell/external-links'

describe('external links', () => {
  it('opens the providers documentation over https', () => {
    expect(allowedExternalUrl('https://docs.aws.amazon.com/AmazonS3/latest/userguide/restoring-objects.html')).toBe(
      'https://docs.aws.amazon.com/AmazonS3/latest/userguide/restoring-objects.html'
    )
    expect(allowedExternalUrl('https://cloud.google.com/storage/docs/authentication')).toBe('https://cloud.google.com/storage/docs/authentication')
  })

  it('refuses other schemes, hosts that only look alike, userinfo tricks and ports', () => {
    for (const u of [
      'http://docs.aws.amazon.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://export-explorer/index.html',
      'https://docs.aws.amazon.com.evil.example/',
      'https://evil.example/https://docs.aws.amazon.com/',
      'https://docs.aws.amazon.com@evil.example/',
      'https://user:pw@docs.aws.amazon.com/',
      'https://docs.aws.amazon.com:8443/',
      'smb://cloud.google.com/share',
      'not a url'
    ])
      expect(allowedExternalUrl(u), u).toBeNull()
  })

  it('denies every new window; an allowed link goes to the browser instead', () => {
    expect(windowOpenDecision('https://cloud.google.com/docs')).toEqual({ action: 'deny', openExternal: 'https://cloud.google.com/docs' })
    expect(windowOpenDecision('https://evil.example/')).toEqual({ action: 'deny', openExternal: null })
  })
})
