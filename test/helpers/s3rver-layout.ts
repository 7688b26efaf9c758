// Objects written straight into s3rver's on-disk layout (what its PUT would write), with a chosen modification
// time: benchmarks seed a year of objects this way in seconds instead of one request each.
import { createHash } from 'node:crypto'
import { mkdir, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export async function putRaw(dir: string, bucket: string, key: string, body: string | Buffer, mtime: number): Promise<void> {
  const parts = key.split('/')
  const name = parts.pop() as string
  const d = join(dir, bucket, ...parts)
  await mkdir(d, { recursive: true })
  const file = join(d, `${name}._S3rver_object`)
  await writeFile(file, body)
  await writeFile(`${file}.md5`, createHash('md5').update(body).digest('hex'))
  await writeFile(join(d, `${name}._S3rver_metadata.json`), '{"content-type":"application/octet-stream"}')
  const t = new Date(mtime)
  await utimes(file, t, t)
}
