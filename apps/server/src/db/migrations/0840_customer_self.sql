-- Customer self-service (issue 16, "custself"): "my account" preferences, driver records and the current
-- driver of a vehicle (JT/T 808 0x0702 driver identification, or set by hand), and per-brand login pages.

-- My account: the default map and the alarm sound follow the account from one browser to the next.
ALTER TABLE users ADD COLUMN map_type text NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN alarm_sound boolean NOT NULL DEFAULT true;

-- Driver records of an account (an agent or a customer): a card number ties a record to the IC card a
-- JT/T 808 terminal reads (0x0702).
CREATE TABLE drivers (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  phone text NOT NULL DEFAULT '',
  licence text NOT NULL DEFAULT '',
  ic_card text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX drivers_user_idx ON drivers (user_id, id);
CREATE INDEX drivers_card_idx ON drivers (ic_card) WHERE ic_card <> '';

-- The vehicle's current driver: its name and phone as shown (from a record, a card or the bulk edit).
ALTER TABLE devices ADD COLUMN driver_name text NOT NULL DEFAULT '';
ALTER TABLE devices ADD COLUMN driver_phone text NOT NULL DEFAULT '';
ALTER TABLE devices ADD COLUMN driver_id bigint REFERENCES drivers (id) ON DELETE SET NULL;

-- Who drove when: one row per change of driver (card in / card out / set by hand). Trips and exports read
-- the driver in place at a time from here.
CREATE TABLE driver_log (
  id bigserial PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  time timestamptz NOT NULL,
  -- 'in' a driver starts (card inserted, set by hand); 'out' the card was removed (no driver)
  action text NOT NULL CHECK (action IN ('in', 'out')),
  driver_id bigint REFERENCES drivers (id) ON DELETE SET NULL,
  name text NOT NULL DEFAULT '',
  ic_card text NOT NULL DEFAULT '',
  source text NOT NULL DEFAULT 'card' CHECK (source IN ('card', 'manual'))
);
CREATE INDEX driver_log_device_time_idx ON driver_log (device_id, time DESC);

-- Brands: a login page and layout per host name or path (/b/<key>).
CREATE TABLE brands (
  id bigserial PRIMARY KEY,
  -- the path key (/b/<key>) and an optional host name that selects the brand
  key text NOT NULL UNIQUE,
  host text NOT NULL DEFAULT '',
  name text NOT NULL,
  title text NOT NULL DEFAULT '',
  logo text NOT NULL DEFAULT '',
  primary_color text NOT NULL DEFAULT '#1677ff',
  header_color text NOT NULL DEFAULT '#001529',
  app_url text NOT NULL DEFAULT '',
  default_lang text NOT NULL DEFAULT '',
  default_map text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX brands_host_key ON brands (lower(host)) WHERE host <> '';
