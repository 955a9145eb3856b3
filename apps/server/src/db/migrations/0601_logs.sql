-- Factory logs (spec §2 /test/log/*): raw frame capture switched on per IMEI, the system log of server
-- warnings and errors, and how long each kind of log is kept.

-- Staff switch frame capture on for an IMEI until `until`; the gateway then records each frame it splits.
CREATE TABLE frame_capture (
  terminal_id text PRIMARY KEY,
  until timestamptz NOT NULL,
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE frame_log (
  id bigserial PRIMARY KEY,
  time timestamptz NOT NULL DEFAULT now(),
  terminal_id text NOT NULL,
  protocol text NOT NULL,
  -- in: from the device; out: to the device
  direction text NOT NULL CHECK (direction IN ('in', 'out')),
  hex text NOT NULL,
  -- the frame as the codec decoded it (null when it did not decode)
  decoded jsonb,
  remote text NOT NULL DEFAULT ''
);
CREATE INDEX frame_log_terminal_idx ON frame_log (terminal_id, id DESC);
CREATE INDEX frame_log_time_idx ON frame_log (time);

-- Server warnings and errors (logger level warn and above), kept with a bounded size.
CREATE TABLE system_log (
  id bigserial PRIMARY KEY,
  time timestamptz NOT NULL DEFAULT now(),
  -- warn | error | fatal
  level text NOT NULL,
  message text NOT NULL,
  detail text NOT NULL DEFAULT ''
);
CREATE INDEX system_log_time_idx ON system_log (time);

-- Days each log kind is kept (deviceLog, frameLog, systemLog, commandLog, task); a missing row: the default.
CREATE TABLE log_retention (
  kind text PRIMARY KEY,
  days integer NOT NULL CHECK (days BETWEEN 1 AND 3650),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
