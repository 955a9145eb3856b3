-- Web features: geofences and their devices, fence alarm links, the geocoding cache and API keys.
-- Map keys, the geocoder, the maintenance notice and the demo account are rows of `settings`.

-- A fence belongs to a user (its owner); whoever reaches the owner in the hierarchy reaches the fence.
-- Geometry is stored in WGS-84: a circle (lat, lon, radius in metres) or a rectangle (min/max lat/lon).
CREATE TABLE fences (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  shape text NOT NULL CHECK (shape IN ('circle', 'rectangle')),
  lat double precision,
  lon double precision,
  radius double precision CHECK (radius IS NULL OR (radius >= 100 AND radius <= 1000000)),
  min_lat double precision,
  min_lon double precision,
  max_lat double precision,
  max_lon double precision,
  -- which crossings raise an alarm: in (entering), out (leaving), inOut (both)
  alarm_type text NOT NULL CHECK (alarm_type IN ('in', 'out', 'inOut')),
  state text NOT NULL DEFAULT 'opened' CHECK (state IN ('opened', 'closed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (shape = 'circle' AND lat IS NOT NULL AND lon IS NOT NULL AND radius IS NOT NULL)
    OR (shape = 'rectangle' AND min_lat < max_lat AND min_lon < max_lon)
  )
);
CREATE INDEX fences_user_idx ON fences (user_id);

-- Devices linked to a fence, with the side of the fence the device was last seen on (null: not known yet).
CREATE TABLE fence_devices (
  fence_id bigint NOT NULL REFERENCES fences (id) ON DELETE CASCADE,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  inside boolean,
  -- fix time of the last crossing (or of the first fix after linking)
  changed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (fence_id, device_id)
);
CREATE INDEX fence_devices_device_idx ON fence_devices (device_id);

-- Which fence(s) an alarm row of type 4 (enter) or 5 (leave) was raised for.
CREATE TABLE fence_alarms (
  alarm_id bigint NOT NULL REFERENCES alarms (id) ON DELETE CASCADE,
  fence_id bigint NOT NULL REFERENCES fences (id) ON DELETE CASCADE,
  fence_name text NOT NULL,
  PRIMARY KEY (alarm_id, fence_id)
);
CREATE INDEX fence_alarms_fence_idx ON fence_alarms (fence_id);

-- Reverse-geocoding and suggestion answers by provider, language and key (rounded lat/lng or region + query).
CREATE TABLE geocode_cache (
  kind text NOT NULL CHECK (kind IN ('address', 'suggestion')),
  provider text NOT NULL,
  lang text NOT NULL,
  cache_key text NOT NULL,
  value jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, provider, lang, cache_key)
);
CREATE INDEX geocode_cache_created_idx ON geocode_cache (created_at);

-- API keys for integrations (System → apiKey): a key logs in as its user; only its sha256 is stored.
CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- the first characters of the key, to recognise it in the list
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);
