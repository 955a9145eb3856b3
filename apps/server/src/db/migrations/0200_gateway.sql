-- Gateway and data pipeline: positions (time-partitioned), alarms, commands with their log, device log,
-- per-device command configuration ("orders"), and the session key on device_state.

-- Positions: one row per accepted fix. Partitioned by month; partitions are created ahead on demand by the
-- ingest writer (gateway/ingest/partitions.ts) and a default partition catches anything else.
-- No foreign key to devices: a per-row key check would cost ingest throughput; clearing a device's data
-- deletes its positions explicitly.
CREATE TABLE positions (
  device_id bigint NOT NULL,
  time timestamptz NOT NULL,
  lat double precision NOT NULL,
  lon double precision NOT NULL,
  altitude real NOT NULL DEFAULT 0,
  speed real NOT NULL DEFAULT 0,
  course real NOT NULL DEFAULT 0,
  -- the device's own fix flag (GPS fixed); tracks show valid fixes only
  valid boolean NOT NULL,
  satellites smallint,
  -- gps | beidou | lbs | wifi
  location_type text,
  acc boolean,
  -- device odometer in metres, when it reports one
  mileage double precision
) PARTITION BY RANGE (time);
-- Unique: a fix resent after a lost ACK (reconnect, crash) is stored once.
CREATE UNIQUE INDEX positions_device_time_key ON positions (device_id, time);
CREATE TABLE positions_default PARTITION OF positions DEFAULT;

CREATE TABLE alarms (
  id bigserial PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  -- alarm code of the domain catalogue (0..48, 201, battery 50..80)
  type smallint NOT NULL,
  time timestamptz NOT NULL,
  lat double precision,
  lon double precision,
  speed real,
  course real,
  -- device: reported by the tracker; derived: computed by ingest (overspeed, low battery, offline, fence);
  -- manual: saved through the API
  source text NOT NULL DEFAULT 'device',
  -- the protocol's alarm name when it came from a device ('sos', 'powerCut', …)
  name text NOT NULL DEFAULT '',
  read boolean NOT NULL DEFAULT false,
  read_at timestamptz,
  read_by bigint REFERENCES users (id) ON DELETE SET NULL,
  address text,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Unique: the same alarm resent after a lost ACK is stored once.
CREATE UNIQUE INDEX alarms_device_type_time_key ON alarms (device_id, type, time);
CREATE INDEX alarms_device_time_idx ON alarms (device_id, time DESC);
CREATE INDEX alarms_time_idx ON alarms (time DESC);

-- Commands sent to devices, live or offline. Every status change is also written to command_log.
CREATE TABLE commands (
  id bigserial PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  terminal_id text NOT NULL,
  -- devices.protocol at the time of sending (0 other, 1 808, 2 GT06, 3 808 long-standby, 4 BSJ)
  protocol smallint NOT NULL DEFAULT 0,
  content text NOT NULL,
  -- live: sent now and waited for; offline: queued, sent at each connection until answered; manual: recorded only
  mode text NOT NULL CHECK (mode IN ('live', 'offline', 'manual')),
  -- pending → sent → answered | timeout | failed | expired | cancelled
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'answered', 'timeout', 'failed', 'expired', 'cancelled')),
  -- spec §4: 1 success, 2 timeout, 3 error
  result smallint CHECK (result IN (1, 2, 3)),
  reply text,
  sender_id bigint REFERENCES users (id) ON DELETE SET NULL,
  sender_name text NOT NULL DEFAULT '',
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  answered_at timestamptz,
  expires_at timestamptz
);
CREATE INDEX commands_device_idx ON commands (device_id, id DESC);
CREATE INDEX commands_offline_open_idx ON commands (device_id, id) WHERE mode = 'offline' AND status IN ('pending', 'sent');

CREATE TABLE command_log (
  id bigserial PRIMARY KEY,
  command_id bigint NOT NULL REFERENCES commands (id) ON DELETE CASCADE,
  time timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL,
  detail text NOT NULL DEFAULT ''
);
CREATE INDEX command_log_command_idx ON command_log (command_id, id);

-- What devices did at the gateway: logins, refusals of unknown devices, garbage, idle timeouts, replaced sessions.
CREATE TABLE device_log (
  id bigserial PRIMARY KEY,
  time timestamptz NOT NULL DEFAULT now(),
  terminal_id text NOT NULL,
  device_id bigint,
  -- gt06 | jt808 | nb | ccs
  protocol text NOT NULL,
  -- login | logout | refused | garbage | idle | replaced | invalidPosition | push
  event text NOT NULL,
  remote text NOT NULL DEFAULT '',
  detail text NOT NULL DEFAULT ''
);
CREATE INDEX device_log_terminal_idx ON device_log (terminal_id, id DESC);
CREATE INDEX device_log_time_idx ON device_log (time DESC);

-- Per-device command configuration (/api/order/*): the last values set for each command, to prefill forms.
CREATE TABLE command_orders (
  device_id bigint PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  items jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Which gateway session last brought the device online, so a closing old session (possibly in another
-- gateway process) does not mark a device offline that has already reconnected elsewhere.
ALTER TABLE device_state ADD COLUMN session_key text;
CREATE INDEX device_state_online_seen_idx ON device_state (last_seen) WHERE online;
