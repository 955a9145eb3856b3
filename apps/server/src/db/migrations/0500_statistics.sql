-- Statistics (issue 13): a per-device speed limit, the per device per day statistics rows, and the devices
-- whose days need rolling up again because fixes arrived for them.

-- Speed limit (km/h) above which a device overspeeds (spec §9; default 120). The ingest's overspeed alarm
-- and the statistics' overspeed count both use it.
ALTER TABLE devices ADD COLUMN speed_limit real NOT NULL DEFAULT 120 CHECK (speed_limit >= 10 AND speed_limit <= 300);

-- One row per device and day; the day is a calendar day of the time zone of the account owning the device
-- (users.time_zone) when the row was computed. Statistics queries read these rows, never the positions.
CREATE TABLE stat_daily (
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  day date NOT NULL,
  -- metres; 'odometer' or 'distance'
  mileage double precision NOT NULL DEFAULT 0,
  mileage_source text NOT NULL DEFAULT 'distance',
  run_seconds integer NOT NULL DEFAULT 0,
  stop_count integer NOT NULL DEFAULT 0,
  stop_seconds integer NOT NULL DEFAULT 0,
  engine_seconds integer NOT NULL DEFAULT 0,
  idle_seconds integer NOT NULL DEFAULT 0,
  -- km/h
  max_speed real NOT NULL DEFAULT 0,
  overspeed_count integer NOT NULL DEFAULT 0,
  alarm_count integer NOT NULL DEFAULT 0,
  -- alarm code → count, e.g. {"1": 2, "6": 1}
  alarms jsonb NOT NULL DEFAULT '{}'::jsonb,
  fix_count integer NOT NULL DEFAULT 0,
  computed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, day)
);
CREATE INDEX stat_daily_day_idx ON stat_daily (day);

-- Devices with fixes or alarms stored since their last roll-up, and the time span they touched. Written by
-- the ingest side in small batches (never per fix), consumed by the roll-up job.
CREATE TABLE stat_dirty (
  device_id bigint PRIMARY KEY,
  from_time timestamptz NOT NULL,
  to_time timestamptz NOT NULL,
  marked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stat_dirty_marked_idx ON stat_dirty (marked_at);

-- Progress of background jobs (jobs/queue.ts; the queue itself is pg-boss, schema pgboss): a fraction
-- 0..1 and a small detail, written by the job's handler, read by whoever shows a progress bar.
CREATE TABLE job_progress (
  job_id text PRIMARY KEY,
  name text NOT NULL,
  progress real NOT NULL DEFAULT 0,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Export jobs (countExport): who asked, what, state and the finished file's location.
CREATE TABLE stat_exports (
  id bigserial PRIMARY KEY,
  job_id text,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  params jsonb NOT NULL,
  -- queued | running | done | failed
  state text NOT NULL DEFAULT 'queued',
  rows integer NOT NULL DEFAULT 0,
  file text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX stat_exports_user_idx ON stat_exports (user_id, id DESC);
