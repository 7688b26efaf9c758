// The generator's own description of the 19 tables and their columns. Written apart from the core's
// catalog on purpose: the generator is the independent truth the core is tested against.
import type { Random } from './random'

export type ColumnType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP'

export interface DemoColumn {
  readonly name: string
  readonly type: ColumnType
}

export interface DemoTable {
  readonly schema: string
  readonly table: string
  readonly mode: 'full' | 'parts'
  /** Row identifier column (every table has one in the data; only two parts tables dedupe on it). */
  readonly idColumn: string
  readonly dedupeKey: boolean
  /** Rows per delivery hour at scale 1. */
  readonly ratePerHour: number
  readonly columns: readonly DemoColumn[]
}

const v = (name: string): DemoColumn => ({ name, type: 'VARCHAR' })
const n = (name: string): DemoColumn => ({ name, type: 'BIGINT' })
const d = (name: string): DemoColumn => ({ name, type: 'DOUBLE' })
const b = (name: string): DemoColumn => ({ name, type: 'BOOLEAN' })
const ts = (name: string): DemoColumn => ({ name, type: 'TIMESTAMP' })

function fullTable(schema: string, table: string, idColumn: string, rate: number, extra: DemoColumn[]): DemoTable {
  return {
    schema,
    table,
    mode: 'full',
    idColumn,
    dedupeKey: false,
    ratePerHour: rate,
    columns: [v(idColumn), v('tenant_id'), ...extra, ts('created_at'), ts('updated_at')]
  }
}

const C = 'datamart_claudia'
const S = 'datamart_cloudchat_saas'

export const DEMO_TABLES: readonly DemoTable[] = [
  fullTable(C, 'claudia_contents', 'content_id', 1, [v('title'), v('content_type'), n('word_count'), b('is_active')]),
  fullTable(C, 'claudia_conversation', 'conversation_id', 3, [v('channel'), v('status'), n('message_count'), d('duration_seconds')]),
  fullTable(C, 'claudia_conversation_feedback', 'feedback_id', 1, [v('conversation_id'), v('rating'), v('comment')]),
  fullTable(C, 'claudia_csat', 'csat_id', 1, [v('conversation_id'), n('score')]),
  fullTable(C, 'eddie_result_outcomes', 'outcome_id', 2, [v('conversation_id'), v('outcome'), d('confidence')]),
  {
    schema: C,
    table: 'claudia_messages',
    mode: 'parts',
    idColumn: 'message_id',
    dedupeKey: true,
    ratePerHour: 10,
    columns: [v('message_id'), v('conversation_id'), v('tenant_id'), v('role'), v('content'), n('tokens'), ts('send_at'), ts('updated_at')]
  },
  {
    schema: C,
    table: 'claudia_prompt_revision',
    mode: 'parts',
    idColumn: 'prompt_revision_id',
    dedupeKey: true,
    ratePerHour: 2,
    columns: [v('prompt_revision_id'), v('prompt_id'), v('tenant_id'), n('revision_number'), v('content'), v('author'), ts('created_at'), ts('updated_at')]
  },
  fullTable(S, 'cloud_chat_account_user_availability_histories', 'availability_id', 2, [v('user_id'), v('availability'), ts('changed_at')]),
  fullTable(S, 'cloud_chat_agent_metrics', 'metric_id', 2, [v('agent_id'), n('conversations_handled'), d('avg_handle_seconds')]),
  fullTable(S, 'cloud_chat_contacts', 'contact_id', 2, [v('name'), v('email'), v('phone')]),
  fullTable(S, 'cloud_chat_conversations', 'conversation_id', 3, [v('contact_id'), v('team_id'), v('status'), ts('closed_at')]),
  fullTable(S, 'cloud_chat_conversations_custom_fields', 'custom_field_id', 1, [v('conversation_id'), v('field_name'), v('field_value')]),
  fullTable(S, 'cloud_chat_conversations_first_reply_metrics', 'first_reply_id', 2, [v('conversation_id'), d('first_reply_seconds')]),
  fullTable(S, 'cloud_chat_conversations_tags', 'conversation_tag_id', 2, [v('conversation_id'), v('tag_id')]),
  fullTable(S, 'cloud_chat_csat', 'csat_id', 1, [v('conversation_id'), n('score'), v('comment')]),
  fullTable(S, 'cloud_chat_outbound_events', 'event_id', 2, [v('contact_id'), v('event_type'), v('channel')]),
  fullTable(S, 'cloud_chat_tags', 'tag_id', 1, [v('name'), v('color')]),
  fullTable(S, 'cloud_chat_team_metrics', 'team_metric_id', 1, [v('team_id'), n('open_conversations'), d('sla_met_ratio')]),
  {
    schema: S,
    table: 'cloud_chat_messages',
    mode: 'parts',
    idColumn: 'message_id',
    dedupeKey: false,
    ratePerHour: 8,
    columns: [v('message_id'), v('conversation_id'), v('tenant_id'), v('sender_type'), v('body'), ts('created_at')]
  }
]

export const TENANTS = ['tnt_acme', 'tnt_globex', 'tnt_initech', 'tnt_umbrella'] as const

const WORDS = [
  'order',
  'refund',
  'delivery',
  'account',
  'password',
  'invoice',
  'upgrade',
  'cancel',
  'status',
  'help',
  'thanks',
  'olá',
  'obrigado',
  'pedido',
  "can't",
  'say "hi"',
  'line,with,commas'
]
const CHOICES: Record<string, readonly string[]> = {
  channel: ['whatsapp', 'webchat', 'email', 'instagram'],
  status: ['open', 'pending', 'resolved', 'closed'],
  role: ['user', 'assistant', 'system'],
  sender_type: ['contact', 'agent', 'bot'],
  rating: ['positive', 'neutral', 'negative'],
  outcome: ['resolved', 'escalated', 'abandoned'],
  availability: ['online', 'away', 'offline'],
  event_type: ['sent', 'delivered', 'read', 'failed'],
  content_type: ['faq', 'article', 'snippet'],
  color: ['red', 'green', 'blue', 'amber'],
  author: ['ana', 'bruno', 'carla', 'diego']
}

export function sentence(rng: Random, words = 6): string {
  const out: string[] = []
  for (let i = 0; i < words; i++) out.push(rng.pick(WORDS))
  return out.join(' ')
}

export type CellValue = string | number | boolean | null

/** A plausible value for a column that is not an identifier or a time the model controls. */
export function plausibleValue(col: DemoColumn, rng: Random, at: number): CellValue {
  const choices = CHOICES[col.name]
  if (choices) return rng.pick(choices)
  switch (col.type) {
    case 'BIGINT':
      return rng.int(0, col.name === 'score' ? 5 : 5000)
    case 'DOUBLE':
      return Math.round(rng.next() * 100000) / 100
    case 'BOOLEAN':
      return rng.chance(0.8)
    case 'TIMESTAMP':
      return at + rng.int(0, 3_600_000)
    case 'VARCHAR':
      if (col.name.endsWith('_id')) return `${col.name.slice(0, -3)}_${rng.int(1, 99999).toString().padStart(5, '0')}`
      if (col.name === 'email') return `user${rng.int(1, 9999)}@example.com`
      return sentence(rng, 3)
  }
}
