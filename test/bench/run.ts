// npm run bench -- [cli] [cli-year] [footer] [listing] [mirror] [query] [ui] [watch] [year]   (no argument: every benchmark)
import { benchCli } from './cli.bench'
import { benchCliYear } from './cli-year.bench'
import { benchFooter } from './footer.bench'
import { benchListing } from './listing.bench'
import { benchMirror } from './mirror.bench'
import { benchQuery } from './query.bench'
import { benchUi } from './ui.bench'
import { benchWatch } from './watch.bench'
import { benchYear } from './year.bench'

const benches: Record<string, () => Promise<void>> = {
  cli: benchCli,
  'cli-year': benchCliYear,
  footer: benchFooter,
  listing: benchListing,
  mirror: benchMirror,
  query: benchQuery,
  ui: benchUi,
  watch: benchWatch,
  year: benchYear
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2)
  for (const name of wanted.length ? wanted : Object.keys(benches)) {
    const run = benches[name]
    if (!run) throw new Error(`no benchmark "${name}"; there are: ${Object.keys(benches).join(', ')}`)
    await run()
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e)
    process.exit(1)
  }
)
