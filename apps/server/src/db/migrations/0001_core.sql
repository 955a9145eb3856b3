-- Core tables shared by every area: accounts, sessions, devices and each device's last state.
-- Later areas add their own numbered migrations (positions, alarms, commands, quotas, fences, …).

CREATE TABLE users (
  id bigserial PRIMARY KEY,
  username text NOT NULL,
  password_hash text NOT NULL,
  nickname text NOT NULL DEFAULT '',
  role smallint NOT NULL,
  parent_id bigint REFERENCES users (id),
  -- Materialised tree path including the user itself, e.g. '/1/5/12/'. A subtree is `path LIKE '/1/5/%'`.
  path text NOT NULL DEFAULT '',
  telephone text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  mark text NOT NULL DEFAULT '',
  provider_name text NOT NULL DEFAULT '',
  provider_linkman text NOT NULL DEFAULT '',
  provider_telephone text NOT NULL DEFAULT '',
  lang text NOT NULL DEFAULT 'cn',
  time_zone text NOT NULL DEFAULT 'Asia/Shanghai',
  expire_at timestamptz,
  import_quota integer NOT NULL DEFAULT 0,
  device_num integer NOT NULL DEFAULT 0,
  sale_num integer NOT NULL DEFAULT 0,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE INDEX users_path_idx ON users (path text_pattern_ops);
CREATE INDEX users_parent_idx ON users (parent_id);

CREATE TABLE sessions (
  -- sha256 of the random token held in the httpOnly cookie; the token itself is never stored.
  id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  remember boolean NOT NULL DEFAULT false,
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE devices (
  id bigserial PRIMARY KEY,
  terminal_id text NOT NULL UNIQUE,
  user_id bigint REFERENCES users (id),
  nickname text NOT NULL DEFAULT '',
  sim text NOT NULL DEFAULT '',
  iccid text NOT NULL DEFAULT '',
  car_number text NOT NULL DEFAULT '',
  icon_type smallint NOT NULL DEFAULT 1,
  device_type smallint NOT NULL DEFAULT 0,
  -- protocol type: 0 other, 1 808, 2 GT06, 3 808 long-standby, 4 BSJ 11-digit
  protocol smallint NOT NULL DEFAULT 0,
  time_zone smallint NOT NULL DEFAULT 8,
  host text NOT NULL DEFAULT '',
  nb_device_id text,
  picture text,
  service_term smallint,
  activated_at timestamptz,
  platform_expire_at timestamptz,
  user_expire_at timestamptz,
  expire_manual boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_user_idx ON devices (user_id);

CREATE TABLE device_state (
  device_id bigint PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  online boolean NOT NULL DEFAULT false,
  state_time timestamptz,
  last_seen timestamptz,
  pos_time timestamptz,
  lat double precision,
  lon double precision,
  altitude real,
  speed real,
  course real,
  valid boolean,
  satellites smallint,
  location_type text,
  acc boolean,
  battery real,
  mileage double precision,
  tyres jsonb,
  battery_pack jsonb,
  attributes jsonb NOT NULL DEFAULT '{}'::jsonb
);
