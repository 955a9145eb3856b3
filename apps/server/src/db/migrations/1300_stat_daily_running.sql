-- Statistics (issue 13): the running state of each device-day (packages/domain dayState.ts: last fix, mileage
-- so far, open stay and overspeed, counters), so the roll-up advances a day with the fixes that arrived since
-- instead of reading the whole day again. Beside stat_daily rather than in it: statistics reads scan
-- stat_daily and need not carry the state. No state (days rolled up before): the next roll-up of the day
-- recomputes it from its fixes.
CREATE TABLE stat_running (
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  day date NOT NULL,
  state jsonb NOT NULL,
  PRIMARY KEY (device_id, day)
);
