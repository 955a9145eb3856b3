-- Per device and UTC day, the compact encoding of that day's valid fixes (modules/track/segments.ts), so a
-- long track is read as a few dozen rows instead of hundreds of thousands. Only days that have ended are kept.
-- A fix stored late for a past day bumps `version` and clears `data` in the same transaction as the fix; a
-- reader stores a segment only if the version it started from is still there, so a segment never misses a fix.
CREATE TABLE track_segments (
  device_id bigint NOT NULL,
  day date NOT NULL,
  version integer NOT NULL DEFAULT 0,
  -- null: not computed, or invalidated by a late fix
  data jsonb,
  PRIMARY KEY (device_id, day)
);
