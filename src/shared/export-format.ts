// An export's name is its format: the extension each format writes, the name for a format, and the words when a
// name disagrees with the format chosen (a Parquet file named .csv, CSV text named .parquet). The app's dialog,
// main's export and the CLI all ask here.
export type ExportFormat = 'csv' | 'parquet'

export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'parquet']

/** The extensions a file of each format is known by, the one proposed first. */
const EXTENSIONS: Readonly<Record<ExportFormat, readonly string[]>> = { csv: ['.csv'], parquet: ['.parquet', '.pq'] }

const extensionOf = (name: string): string => {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1)
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(dot).toLowerCase() : ''
}

/** The format a file name says, or null when its extension names none. */
export function formatOfName(name: string): ExportFormat | null {
  const ext = extensionOf(name)
  return EXPORT_FORMATS.find((f) => EXTENSIONS[f].includes(ext)) ?? null
}

/** The name with the format's extension: a known export extension replaced, else the extension added. */
export function nameForFormat(name: string, format: ExportFormat): string {
  const stem = formatOfName(name) === null ? name : name.slice(0, name.length - extensionOf(name).length)
  return `${stem}${EXTENSIONS[format][0]}`
}

/** Why a name and a format disagree, in words naming both; null when they agree (or the name says no format). */
export function nameFormatMismatch(name: string, format: ExportFormat): string | null {
  const said = formatOfName(name)
  if (said === null || said === format) return null
  const label = (f: ExportFormat): string => (f === 'csv' ? 'CSV' : 'Parquet')
  return `${name} is named as a ${label(said)} file, but the export is ${label(format)}: name it ${nameForFormat(name, format)}, or choose ${label(said)}.`
}
