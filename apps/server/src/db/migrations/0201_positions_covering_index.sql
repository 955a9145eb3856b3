-- Tracks read one device's fixes in time order. With the fix columns in the unique index, PostgreSQL answers a
-- track from the index alone (an index-only scan over that device's entries, which sit together), instead of
-- visiting heap pages that are shared with every other device's fixes of the same moment.
DROP INDEX positions_device_time_key;
CREATE UNIQUE INDEX positions_device_time_key ON positions (device_id, time) INCLUDE (lat, lon, speed, course, valid);
