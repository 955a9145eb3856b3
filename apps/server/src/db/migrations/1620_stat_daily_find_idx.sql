-- Statistics (issue 13): /stat/find reads the daily rows of each selected device over its days with their
-- stored text (row_json) by an index-only scan of this index: a device's days lie next to each other in the
-- index, whereas in the table each day's roll-up writes that day's rows together, one heap page per device
-- and day for a device's month. Rows without stored text are looked up in the table (stat/daily.ts).
CREATE INDEX stat_daily_find_idx ON stat_daily (device_id, day) INCLUDE (row_json);
