// No false alarms on a clean generated month: the generator's plan for 30 days (its manifests give the rows it
// writes for each table and hour, the same the footers would sum) judged by the volume monitor raises no
// volume_anomaly, and its rows reach the monitor (every ready v2 delivery of the month is a judged point).
import { describe, expect, it } from 'vitest'
import { planDemoBucket } from '../../src/main/demo-bucket/demo-plan'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { analyzeTimeline } from '../../src/shared/timeline'

describe('the monitors on a clean generated month', () => {
  it('find no volume anomaly, and judge its deliveries', () => {
    const plan = planDemoBucket({ seed: 11, days: 30, scale: 1, v1Days: 5 })
    const iso = (t: number): string => new Date(t).toISOString()
    const objects: ListedObject[] = []
    const texts = new Map<string, string>()
    for (const f of plan.folders) {
      for (const file of f.files) objects.push({ key: file.key, size: 4096, lastModified: iso(file.mtime) })
      if (f.marker !== null) objects.push({ key: `${f.prefix}_SUCCESS`, size: 0, lastModified: iso(f.marker) })
    }
    for (const t of plan.texts) {
      objects.push({ key: t.key, size: t.text.length, lastModified: iso(t.mtime) })
      texts.set(t.key, t.text)
    }
    const tl = analyzeTimeline(buildInventory(objects), texts, { now: Date.parse(plan.expected.now) })
    expect(tl.findings.filter((f) => f.kind === 'volume_anomaly').map((f) => f.message)).toEqual([])
    // Judged, not skipped: the busiest parts table has a month of hours beside a band.
    const points = tl.volumes.get('claudia_messages') ?? []
    expect(points.filter((p) => p.rowsBand !== null).length).toBeGreaterThan(20 * 24)
  })
})
