// The engine page (test/e2e/engine-page: the renderer's engine code on a bare page) built by Vite: the run's, built
// once by the global setup (test/global-setup.ts), else built into the test's own folder.
import { join } from 'node:path'
import { build } from 'vite'
import { sharedEnginePageDir } from './run-fixtures'

export async function buildEnginePageInto(dir: string): Promise<string> {
  await build({ root: join(import.meta.dirname, '../e2e/engine-page'), logLevel: 'silent', build: { outDir: dir, emptyOutDir: true } })
  return dir
}

/** The built engine page to serve (a folder holding index.html): the run's, else built into `work/page`. */
export async function enginePage(work: string): Promise<string> {
  return sharedEnginePageDir() ?? (await buildEnginePageInto(join(work, 'page')))
}
