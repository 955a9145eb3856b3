-- Customer map features: vehicle checks (a grid-cell index on positions), risk points and their visits,
-- bus routes, polygon fences, and permissions an administrator grants to single agents.

-- Vehicle checks ask "which devices were near this place in this time window" without PostGIS (PGlite has
-- none). Each fix falls in a grid cell of 0.01° × 0.01° (about 1.1 km × 1.1 km at the equator); the index on
-- (cell, time) turns a point or area check into a few short index ranges (the cells the shape covers, each for
-- the window) instead of reading every fix of the window. The expression must stay identical to
-- POSITION_CELL_SQL in modules/checks/grid.ts, or the planner cannot use the index.
CREATE INDEX positions_cell_time_idx ON positions (
  ((floor((lat + 90) * 100))::integer * 36001 + (floor((lon + 180) * 100))::integer),
  time
) INCLUDE (device_id, lat, lon, valid);

-- Risk points (places where a financed car should not be): a circle with a kind and a note, owned by an
-- account; every device in the owner's subtree is watched. A device that stays inside longer than
-- dwell_minutes raises an alarm (code 37, overtime parking, name 'riskPoint').
CREATE TABLE risk_points (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- market | pawnshop | repair | border | other
  kind text NOT NULL DEFAULT 'other',
  lat double precision NOT NULL,
  lon double precision NOT NULL,
  radius double precision NOT NULL CHECK (radius >= 10 AND radius <= 100000),
  note text NOT NULL DEFAULT '',
  dwell_minutes integer NOT NULL DEFAULT 30 CHECK (dwell_minutes >= 1 AND dwell_minutes <= 10080),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX risk_points_user_idx ON risk_points (user_id);

-- One row per stay of a device inside a risk point: open (left_at null) while it is inside.
CREATE TABLE risk_visits (
  id bigserial PRIMARY KEY,
  risk_point_id bigint NOT NULL REFERENCES risk_points (id) ON DELETE CASCADE,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  entered_at timestamptz NOT NULL,
  -- fix time of the last fix seen inside
  last_at timestamptz NOT NULL,
  left_at timestamptz,
  alarm_id bigint REFERENCES alarms (id) ON DELETE SET NULL,
  UNIQUE (risk_point_id, device_id, entered_at)
);
CREATE INDEX risk_visits_device_idx ON risk_visits (device_id, entered_at DESC);
CREATE INDEX risk_visits_point_idx ON risk_visits (risk_point_id, entered_at DESC);
CREATE INDEX risk_visits_open_idx ON risk_visits (device_id) WHERE left_at IS NULL;

-- Bus routes: ordered stops (name, point, radius) and the polyline the buses follow, assigned to devices.
CREATE TABLE bus_routes (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- [{ "name": text, "lat": number, "lon": number, "radius": number }] in order
  stops jsonb NOT NULL DEFAULT '[]',
  -- [[lat, lon], …] WGS-84
  polyline jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bus_routes_user_idx ON bus_routes (user_id);

CREATE TABLE bus_route_devices (
  route_id bigint NOT NULL REFERENCES bus_routes (id) ON DELETE CASCADE,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  PRIMARY KEY (route_id, device_id)
);
CREATE INDEX bus_route_devices_device_idx ON bus_route_devices (device_id);

-- Polygon fences beside circles and rectangles: the vertices in `points` ([[lat, lon], …], 3 to 200).
ALTER TABLE fences ADD COLUMN points jsonb;
ALTER TABLE fences DROP CONSTRAINT fences_shape_check;
ALTER TABLE fences DROP CONSTRAINT fences_check;
ALTER TABLE fences ADD CONSTRAINT fences_shape_check CHECK (shape IN ('circle', 'rectangle', 'polygon'));
ALTER TABLE fences ADD CONSTRAINT fences_geometry_check CHECK (
  (shape = 'circle' AND lat IS NOT NULL AND lon IS NOT NULL AND radius IS NOT NULL)
  OR (shape = 'rectangle' AND min_lat < max_lat AND min_lon < max_lon)
  OR (shape = 'polygon' AND jsonb_typeof(points) = 'array' AND jsonb_array_length(points) >= 3)
);

-- Permissions beyond the role's, granted by an administrator to one account (spec §6: riskPoint, checkCar and
-- bus are the administrator's unless granted to an agent).
CREATE TABLE permission_grants (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  permission text NOT NULL,
  granted_by bigint REFERENCES users (id) ON DELETE SET NULL,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, permission)
);
