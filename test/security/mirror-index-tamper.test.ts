// Attack: the mirror's index names the superseded lists the views read (and the byte server serves, by key). An entry
// written by anyone but this version (another version of the app, a tampered file) could name a file outside the
// mirror's folder, or another list's file: such an entry is dropped, and the list is made again from the segments.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Mirror } from '../../src/main/mirror/mirror'
import { supersededFile } from '../../src/shared/mirror-superseded'

let work: string
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-mirror-tamper-'))
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

it('reads only superseded lists that name their own file, for a keyed parts table', async () => {
  const dir = join(work, 'mirror')
  await mkdir(dir, { recursive: true })
  const table = 'datamart_claudia.claudia_messages'
  const entry = (over: Record<string, unknown>, part: Record<string, unknown> = {}) => ({
    table,
    parts: [{ file: supersededFile(table, 'abc123'), rows: 1, bytes: 1, ...part }],
    newest: 1,
    digest: 'abc123',
    ...over
  })
  const superseded = [
    entry({}),
    // A list with a new hour's versions beside its own file: read.
    entry({
      digest: 'abc124',
      parts: [
        { file: supersededFile(table, 'abc123'), rows: 1, bytes: 1 },
        { file: supersededFile(table, 'abc124', 22026110305), rows: 1, bytes: 1 }
      ]
    }),
    entry({}, { file: '../../../../etc/passwd' }),
    entry({}, { file: `superseded/${table}/../../index.json` }),
    entry({}, { file: supersededFile(table, 'other1') }),
    entry({ digest: '../x' }, { file: supersededFile(table, '../x') }),
    entry({ table: 'datamart_cloudchat_saas.cloud_chat_messages' }, { file: supersededFile('datamart_cloudchat_saas.cloud_chat_messages', 'abc123') }),
    entry({ table: '../..' }, { file: supersededFile('../..', 'abc123') }),
    entry({}, { rows: '1' }),
    // An earlier file of the list outside its folder, or another table's: the whole list is dropped.
    entry({
      parts: [
        { file: '../../x/y.parquet', rows: 1, bytes: 1 },
        { file: supersededFile(table, 'abc123'), rows: 1, bytes: 1 }
      ]
    }),
    entry({
      parts: [
        { file: supersededFile('datamart_claudia.claudia_prompt_revision', 'abc0'), rows: 1, bytes: 1 },
        { file: supersededFile(table, 'abc123'), rows: 1, bytes: 1 }
      ]
    }),
    entry({ parts: [] }),
    // A name that is not a list file's: the folder itself (whose size a forged entry could give), or past a file.
    entry({
      parts: [
        { file: `superseded/${table}/a/../../.`, rows: 1, bytes: 1 },
        { file: supersededFile(table, 'abc123'), rows: 1, bytes: 1 }
      ]
    }),
    entry({}, { file: `superseded/${table}/abc123.parquet/..` }),
    entry({}, { file: `superseded/${table}/abc123.after-x.parquet` }),
    // A list of an earlier shape (one file, no parts): made anew.
    { table, file: supersededFile(table, 'old1'), rows: 1, bytes: 1, newest: 1, digest: 'old1' }
  ]
  await writeFile(join(dir, 'index.json'), JSON.stringify({ version: 4, segments: [], superseded }))
  const mirror = new Mirror(dir, fileStoreFor(new LocalFolderProvider(work), join(work, 'data'), 'c'))
  expect((await mirror.superseded()).map((l) => l.parts.map((p) => p.file))).toEqual([
    [supersededFile(table, 'abc123')],
    [supersededFile(table, 'abc123'), `superseded/${table}/abc124.after-22026110305.parquet`]
  ])
})
