-- Notifications (issue 18): rules an account defines (events × devices × channels, quiet hours, a minimum
-- interval per device), one delivery row per rule × event × channel (unique, so several processes that all see
-- the same bus event deliver it once), the last notification per rule and device (minimum interval), browser
-- push subscriptions and the server's VAPID key pair.
CREATE TABLE notify_rules (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  events text[] NOT NULL,
  -- [{type:'inApp'} | {type:'email', to:[...]} | {type:'webhook', url, secret} | {type:'push'}]
  channels jsonb NOT NULL,
  -- Chosen devices (null: every device of the owner's subtree) and device types (null: any).
  device_ids bigint[],
  device_types integer[],
  quiet_from text,
  quiet_to text,
  min_interval_seconds integer NOT NULL DEFAULT 0,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notify_rules_user_idx ON notify_rules (user_id);

CREATE TABLE notify_deliveries (
  id bigserial PRIMARY KEY,
  rule_id bigint NOT NULL REFERENCES notify_rules (id) ON DELETE CASCADE,
  -- Same for every process that sees the event: '<event>:<device id>:<source key>'.
  event_key text NOT NULL,
  channel_index smallint NOT NULL,
  channel text NOT NULL,
  event text NOT NULL,
  device_id bigint REFERENCES devices (id) ON DELETE CASCADE,
  -- What the channel sends (webhook body fields, message texts); `id` in the webhook body is this row's uid.
  uid text NOT NULL,
  payload jsonb NOT NULL,
  -- The channel spec at the time of the event (a later edit of the rule does not redirect a pending delivery).
  target jsonb NOT NULL,
  -- queued | sending | retrying | sent | failed
  status text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  -- The receiver's answer: HTTP status and body start, SMTP response, push service status.
  response text NOT NULL DEFAULT '',
  test boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (rule_id, event_key, channel_index)
);
CREATE INDEX notify_deliveries_rule_idx ON notify_deliveries (rule_id, id DESC);
CREATE INDEX notify_deliveries_time_idx ON notify_deliveries (created_at);

CREATE TABLE notify_last (
  rule_id bigint NOT NULL REFERENCES notify_rules (id) ON DELETE CASCADE,
  device_id bigint NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (rule_id, device_id)
);

CREATE TABLE notify_push_subscriptions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The VAPID key pair (one row), generated on first start; the private key never leaves the server.
CREATE TABLE notify_vapid (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  public_key text NOT NULL,
  private_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Scheduled reports: a statistics report mailed as xlsx daily, weekly or monthly in the owner's time zone.
CREATE TABLE report_schedules (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- findAllMileage | stays | trips | alarms | pastDue
  kind text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- daily | weekly | monthly
  frequency text NOT NULL,
  emails text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX report_schedules_user_idx ON report_schedules (user_id);

CREATE TABLE report_sends (
  id bigserial PRIMARY KEY,
  schedule_id bigint NOT NULL REFERENCES report_schedules (id) ON DELETE CASCADE,
  -- The period sent, as local dates of the owner's time zone ('2026-11-26'); unique so a period goes out once.
  period_start text NOT NULL,
  period_end text NOT NULL,
  -- sent | failed
  status text NOT NULL,
  rows integer NOT NULL DEFAULT 0,
  response text NOT NULL DEFAULT '',
  sent_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (schedule_id, period_start)
);
