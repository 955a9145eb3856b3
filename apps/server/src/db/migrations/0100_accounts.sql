-- Accounts area: import-quota records, device ownership history, import jobs, device activation, and the
-- indexes behind the ordered device list (modules/device/listQueries.ts walks them segment by segment).

-- users.import_quota is the REMAINING number of devices an agent may still import or hand down.
-- Every change to it is one row here (signed amount, balance after), so the web can show usage records.
CREATE TABLE import_quota_records (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- 'grant' (received from a superior), 'give' (handed to a subordinate), 'revoke' (taken back by a superior),
  -- 'reclaim' (taken back from a subordinate), 'import' (devices imported), 'set' (set by the administrator)
  kind text NOT NULL CHECK (kind IN ('grant', 'give', 'revoke', 'reclaim', 'import', 'set')),
  amount integer NOT NULL,
  balance integer NOT NULL,
  counterpart_id bigint REFERENCES users (id) ON DELETE SET NULL,
  operator_id bigint REFERENCES users (id) ON DELETE SET NULL,
  note text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX import_quota_records_user_idx ON import_quota_records (user_id, id DESC);

-- Who moved which device where: import, transfer, sale, reset.
CREATE TABLE device_ownership_log (
  id bigserial PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  action text NOT NULL CHECK (action IN ('import', 'transfer', 'sale', 'reset')),
  from_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  to_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  operator_id bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_ownership_log_device_idx ON device_ownership_log (device_id, id DESC);

-- Long imports (devices, users) run as jobs; the web polls their progress. Kept in the database so any API
-- process sharing it can answer the poll.
CREATE TABLE import_jobs (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('devices', 'users')),
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  total integer NOT NULL,
  processed integer NOT NULL DEFAULT 0,
  result jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX import_jobs_user_idx ON import_jobs (user_id, created_at DESC);

-- Service terms (months; NULL = lifelong). The server fills this table from @carhere/domain's SERVICE_TERMS at
-- start (modules/device/serviceTerms.ts), so SQL and the domain know the same terms.
CREATE TABLE service_terms (
  code smallint PRIMARY KEY,
  months integer
);

-- Expiry of a service term from an activation time, as the domain's expiryFromActivation computes it: the same
-- wall-clock time the term's months later in UTC+8, the day clamped to the month's end. NULL for lifelong
-- and for a device without a (known) term. A test compares the two on many instants.
CREATE FUNCTION carhere_term_expiry(activated timestamptz, term smallint) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT ((activated AT TIME ZONE INTERVAL '+08:00') + make_interval(months => t.months)) AT TIME ZONE INTERVAL '+08:00'
    FROM service_terms t
   WHERE t.code = term AND activated IS NOT NULL
$$;

-- The gateway sets devices.activated_at the first time a device connects (again after a reset). From that
-- moment its platform expiry runs for its service term, unless an expiry was set by hand (spec §4).
CREATE FUNCTION carhere_expiry_on_activation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT NEW.expire_manual AND NEW.service_term IS NOT NULL THEN
    NEW.platform_expire_at := carhere_term_expiry(NEW.activated_at, NEW.service_term);
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER devices_expiry_on_activation
  BEFORE UPDATE OF activated_at ON devices
  FOR EACH ROW WHEN (OLD.activated_at IS NULL AND NEW.activated_at IS NOT NULL)
  EXECUTE FUNCTION carhere_expiry_on_activation();

-- Ordered device list (spec §4): online devices by freshest position, offline devices by last report,
-- not-activated devices by IMEI. Each segment is read in index order and stops after one page.
CREATE INDEX device_state_online_pos_idx ON device_state (pos_time DESC NULLS LAST) WHERE online;
CREATE INDEX device_state_offline_seen_idx ON device_state ((COALESCE(last_seen, pos_time)) DESC NULLS LAST)
  WHERE NOT online;
CREATE INDEX devices_unactivated_idx ON devices (terminal_id) WHERE activated_at IS NULL;
-- Plate conflicts (spec §5) are looked up case-insensitively.
CREATE INDEX devices_plate_idx ON devices (upper(car_number)) WHERE car_number <> '';
