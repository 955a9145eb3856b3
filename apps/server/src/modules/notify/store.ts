// Rows of the notification tables (migration 1100) and their presentation.
import type pg from 'pg';

export type ChannelSpec =
  | { type: 'inApp' }
  | { type: 'email'; to: string[] }
  | { type: 'webhook'; url: string; secret: string }
  | { type: 'push' };

export interface RuleRow {
  id: string;
  user_id: string;
  name: string;
  events: string[];
  channels: ChannelSpec[];
  device_ids: string[] | null;
  device_types: number[] | null;
  quiet_from: string | null;
  quiet_to: string | null;
  min_interval_seconds: number;
  params: { offlineMinutes?: number; expiryDays?: number };
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A rule as the notifier holds it: with its owner's path, language and time zone. */
export interface LoadedRule extends RuleRow {
  path: string;
  role: number;
  lang: string;
  time_zone: string;
}

const RULE_COLUMNS = `r.id::text AS id, r.user_id::text AS user_id, r.name, r.events, r.channels,
  r.device_ids::text[] AS device_ids, r.device_types, r.quiet_from, r.quiet_to, r.min_interval_seconds, r.params,
  r.enabled, r.created_at, r.updated_at`;

const RULES_WITH_OWNER = `SELECT ${RULE_COLUMNS}, u.path, u.role, u.lang, u.time_zone
  FROM notify_rules r JOIN users u ON u.id = r.user_id`;

export async function loadRules(pool: pg.Pool): Promise<LoadedRule[]> {
  return (await pool.query<LoadedRule>(`${RULES_WITH_OWNER} WHERE r.enabled`)).rows;
}

export async function ruleById(pool: pg.Pool, id: string): Promise<LoadedRule | undefined> {
  return (await pool.query<LoadedRule>(`${RULES_WITH_OWNER} WHERE r.id = $1`, [id])).rows[0];
}

export interface DeliveryRow {
  id: string;
  rule_id: string;
  event_key: string;
  channel_index: number;
  channel: string;
  event: string;
  device_id: string | null;
  uid: string;
  payload: NotifyPayload;
  /** The channel as the rule said when the event came (a later edit of the rule does not redirect it). */
  target: ChannelSpec;
  status: string;
  attempts: number;
  response: string;
  test: boolean;
  created_at: Date;
  updated_at: Date;
}

/** What every channel renders from: the webhook body fields plus the texts in the recipient's language. */
export interface NotifyPayload {
  event: string;
  terminalID: string;
  deviceName: string;
  time: string;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  alarmCode?: number;
  alarmName?: string;
  address?: string;
  /** Extra words for the message (fence name, command reply, maintenance item). */
  detail?: string;
  lang: string;
  timeZone: string;
}
