// A bucket URL pasted into the bucket field becomes kind, bucket and prefix; the menu's shortcuts in a browser.
import { describe, expect, it } from 'vitest'
import { shortcutCommand } from '../../src/renderer/src/common/menu-shortcuts'
import { parseBucketUrl, providerOfLocation } from '../../src/shared/bucket-url'
import { connectionFromUrl } from '../../src/cli/bucket-url'

describe('bucket URL pasted as a bucket', () => {
  it('splits s3://, gs:// and storage.googleapis.com URLs; the prefix ends in a slash or is empty', () => {
    expect(parseBucketUrl('s3://vendor-export/exports/prod')).toEqual({ provider: 's3', bucket: 'vendor-export', prefix: 'exports/prod/' })
    expect(parseBucketUrl(' s3://vendor-export/ ')).toEqual({ provider: 's3', bucket: 'vendor-export', prefix: '' })
    expect(parseBucketUrl('S3A://b')).toEqual({ provider: 's3', bucket: 'b', prefix: '' })
    expect(parseBucketUrl('gs://my-bucket/a/b/')).toEqual({ provider: 'gcs', bucket: 'my-bucket', prefix: 'a/b/' })
    expect(parseBucketUrl('https://storage.googleapis.com/my-bucket/x')).toEqual({ provider: 'gcs', bucket: 'my-bucket', prefix: 'x/' })
  })

  it('leaves a plain bucket name alone', () => {
    expect(parseBucketUrl('vendor-export')).toBeNull()
    expect(parseBucketUrl('s3://')).toBeNull()
  })
})

describe('menu shortcuts in a browser', () => {
  const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods
  })
  it('Ctrl/⌘+K opens the connections, Ctrl/⌘+Shift+F the findings; other keys are left to the page', () => {
    expect(shortcutCommand(key('k', { ctrlKey: true }))).toBe('connections')
    expect(shortcutCommand(key('K', { metaKey: true }))).toBe('connections')
    expect(shortcutCommand(key('F', { ctrlKey: true, shiftKey: true }))).toBe('findings')
    expect(shortcutCommand(key('k'))).toBeNull()
    expect(shortcutCommand(key('f', { ctrlKey: true }))).toBeNull()
    expect(shortcutCommand(key('k', { ctrlKey: true, altKey: true }))).toBeNull()
  })
})

describe('the CLI reads --bucket with the same parser as the connection form', () => {
  it('takes s3a://, any case and the Cloud Storage https form, and a local folder otherwise', () => {
    const s3 = connectionFromUrl('S3A://Vendor-Export/exports', {})
    expect(s3).toMatchObject({ provider: 's3', bucket: 'Vendor-Export', prefix: 'exports/' })
    const gcs = connectionFromUrl('https://storage.googleapis.com/vendor/exports/', {})
    expect(gcs).toMatchObject({ provider: 'gcs', bucket: 'vendor', prefix: 'exports/' })
    expect(connectionFromUrl('gs://vendor', {})).toMatchObject({ provider: 'gcs', bucket: 'vendor', prefix: '' })
    expect(connectionFromUrl('./some/folder', {})).toMatchObject({ provider: 'local' })
    expect(providerOfLocation('gs://vendor/exports/')).toBe('gcs')
    expect(providerOfLocation('/home/me/bucket')).toBeNull()
  })
})
