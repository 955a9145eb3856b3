-- Statistics (issue 13): each daily row keeps the running state of its day (packages/domain dayState.ts: last
-- fix, mileage so far, open stay and overspeed, counters), so the roll-up advances a day with the fixes that
-- arrived since instead of reading the whole day again. NULL (rows written before): the next roll-up of the
-- day recomputes it from its fixes.
ALTER TABLE stat_daily ADD COLUMN running jsonb;
