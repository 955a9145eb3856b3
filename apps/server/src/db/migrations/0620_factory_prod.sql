-- Factory production: stock records, SIM cards, QC criteria and production test results (issue 14).

-- Import jobs of the factory run through the accounts area's import_jobs (progress, result, rejected lines).
ALTER TABLE import_jobs DROP CONSTRAINT IF EXISTS import_jobs_kind_check;
ALTER TABLE import_jobs ADD CONSTRAINT import_jobs_kind_check
  CHECK (kind IN ('devices', 'users', 'stockImei', 'stockDevice', 'cards'));

-- One row per IMEI the factory knows. The stock STATE is not stored here: it is derived from the device row
-- (packages/domain factory/stock.ts): no device row = unused (preset only), a device row without an owner =
-- in stock, a device row with an owner = out. This table keeps what the device row does not: the preset
-- flag, model name, batch, ICCID at production, and the in/out history.
CREATE TABLE stock_records (
  imei text PRIMARY KEY,
  model text NOT NULL DEFAULT '',
  batch text NOT NULL DEFAULT '',
  iccid text NOT NULL DEFAULT '',
  preset boolean NOT NULL DEFAULT false,
  in_at timestamptz,
  out_at timestamptz,
  agent_id bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stock_records_created_idx ON stock_records (created_at DESC, imei);
CREATE INDEX stock_records_batch_idx ON stock_records (batch);

-- SIM cards. `imei` is the device the card sits in (bound by import, by a device reporting the ICCID, or by a
-- customer's ICCID update); cleared by card/clear.
CREATE TABLE sim_cards (
  iccid text PRIMARY KEY,
  imsi text NOT NULL DEFAULT '',
  msisdn text NOT NULL DEFAULT '',
  operator text NOT NULL DEFAULT '',
  plan text NOT NULL DEFAULT '',
  activated_on date,
  expires_on date,
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('inactive', 'active', 'suspended', 'cancelled')),
  imei text,
  bound_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sim_cards_imei_idx ON sim_cards (imei);
CREATE INDEX sim_cards_msisdn_idx ON sim_cards (msisdn);
CREATE INDEX devices_iccid_idx ON devices (iccid) WHERE iccid <> '';

-- The ICCID a device reports (device_state.attributes.iccid, written by the gateway) keeps devices.iccid and
-- the card in step: the device row takes the reported ICCID and the card with that ICCID is bound to the
-- device. A card bound to the IMEI with another ICCID stays bound, so card/check can show the mismatch.
-- Normalised as the domain's normalizeIccid: upper case, no trailing padding 'F'.
CREATE FUNCTION carhere_iccid_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  reported text := upper(regexp_replace(btrim(coalesce(NEW.attributes->>'iccid', '')), '[Ff]$', ''));
  dev_imei text;
BEGIN
  IF reported = '' THEN RETURN NEW; END IF;
  UPDATE devices SET iccid = reported, updated_at = now()
    WHERE id = NEW.device_id AND iccid IS DISTINCT FROM reported;
  SELECT terminal_id INTO dev_imei FROM devices WHERE id = NEW.device_id;
  UPDATE sim_cards SET imei = dev_imei, bound_at = now(), updated_at = now()
    WHERE iccid = reported AND sim_cards.imei IS DISTINCT FROM dev_imei;
  RETURN NEW;
END $$;
CREATE TRIGGER device_state_iccid_insert AFTER INSERT ON device_state
  FOR EACH ROW WHEN (NEW.attributes ? 'iccid') EXECUTE FUNCTION carhere_iccid_sync();
CREATE TRIGGER device_state_iccid_update AFTER UPDATE OF attributes ON device_state
  FOR EACH ROW WHEN (NEW.attributes->>'iccid' IS DISTINCT FROM OLD.attributes->>'iccid')
  EXECUTE FUNCTION carhere_iccid_sync();

-- Pass criteria per model (the domain's judgeQc applies them).
CREATE TABLE qc_criteria (
  model text PRIMARY KEY,
  min_satellites smallint,
  min_cn0 real,
  min_gsm smallint,
  firmware text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Production test results: v1 (line text), v2 (JSON) and GPS tests. `pass` is the verdict judged on arrival.
CREATE TABLE qc_results (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('v1', 'v2', 'gps')),
  imei text NOT NULL,
  model text NOT NULL DEFAULT '',
  batch text NOT NULL DEFAULT '',
  station text NOT NULL DEFAULT '',
  firmware text,
  gsm real,
  satellites smallint,
  cn0 real,
  ttff real,
  station_pass boolean,
  pass boolean NOT NULL,
  failures jsonb NOT NULL DEFAULT '[]'::jsonb,
  tested_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);
-- QC search by IMEI prefix and date (text_pattern_ops serves LIKE 'prefix%'), by date alone, by batch.
CREATE INDEX qc_results_imei_time_idx ON qc_results (imei text_pattern_ops, tested_at DESC);
CREATE INDEX qc_results_time_idx ON qc_results (tested_at DESC);
CREATE INDEX qc_results_batch_idx ON qc_results (batch, tested_at DESC) WHERE batch <> '';
