-- Segments a late fix cleared (data NULL), for the track.segments job that builds them again (modules/track/jobs.ts):
-- found through this small partial index instead of a scan of every device-day.
CREATE INDEX track_segments_cleared_idx ON track_segments (device_id, day) WHERE data IS NULL;
