// The vendor's 19 tables: how each is delivered, its row key and its event-time column.
// Source: spec/hourly-delivery-v2.md ("Tables rewritten in full", "Tables delivered in parts").

export type DeliveryMode = 'full' | 'parts'

export interface CatalogTable {
  readonly schema: string
  readonly table: string
  readonly mode: DeliveryMode
  /** Column that identifies a row across deliveries; only the keyed parts tables have one. */
  readonly keyColumn: string | null
  /** Column saying when something happened (never etl_hour, which is delivery time). Null where the vendor names none. */
  readonly eventTimeColumn: string | null
}

function full(schema: string, table: string): CatalogTable {
  return { schema, table, mode: 'full', keyColumn: null, eventTimeColumn: null }
}

export const CATALOG: readonly CatalogTable[] = [
  full('datamart_claudia', 'claudia_contents'),
  full('datamart_claudia', 'claudia_conversation'),
  full('datamart_claudia', 'claudia_conversation_feedback'),
  full('datamart_claudia', 'claudia_csat'),
  full('datamart_claudia', 'eddie_result_outcomes'),
  { schema: 'datamart_claudia', table: 'claudia_messages', mode: 'parts', keyColumn: 'message_id', eventTimeColumn: 'send_at' },
  { schema: 'datamart_claudia', table: 'claudia_prompt_revision', mode: 'parts', keyColumn: 'prompt_revision_id', eventTimeColumn: 'created_at' },
  full('datamart_cloudchat_saas', 'cloud_chat_account_user_availability_histories'),
  full('datamart_cloudchat_saas', 'cloud_chat_agent_metrics'),
  full('datamart_cloudchat_saas', 'cloud_chat_contacts'),
  full('datamart_cloudchat_saas', 'cloud_chat_conversations'),
  full('datamart_cloudchat_saas', 'cloud_chat_conversations_custom_fields'),
  full('datamart_cloudchat_saas', 'cloud_chat_conversations_first_reply_metrics'),
  full('datamart_cloudchat_saas', 'cloud_chat_conversations_tags'),
  full('datamart_cloudchat_saas', 'cloud_chat_csat'),
  full('datamart_cloudchat_saas', 'cloud_chat_outbound_events'),
  full('datamart_cloudchat_saas', 'cloud_chat_tags'),
  full('datamart_cloudchat_saas', 'cloud_chat_team_metrics'),
  { schema: 'datamart_cloudchat_saas', table: 'cloud_chat_messages', mode: 'parts', keyColumn: null, eventTimeColumn: 'created_at' }
]

/** "schema.table", the name used in manifests, findings and the CLI. */
export function qualifiedName(t: { schema: string; table: string }): string {
  return `${t.schema}.${t.table}`
}

const byQualified = new Map(CATALOG.map((t) => [qualifiedName(t), t]))

export function findTable(schema: string, table: string): CatalogTable | undefined {
  return byQualified.get(`${schema}.${table}`)
}

/**
 * Resolves a manifest's table reference: "schema.table" or a bare table name (unique across schemas).
 * Returns undefined when nothing in the catalog matches.
 */
export function resolveTableName(name: string): CatalogTable | undefined {
  const exact = byQualified.get(name)
  if (exact) return exact
  if (name.includes('.')) return undefined
  const matches = CATALOG.filter((t) => t.table === name)
  return matches.length === 1 ? matches[0] : undefined
}
