-- Statistics (issue 13): each daily row keeps its /stat/find text after the device's name ("statsticDate" to
-- "alarmCount"), written by the roll-up with the row, so a read of 31,000 rows only joins texts instead of
-- formatting a dozen numbers per row. NULL (rows written before, or by hand): the read formats the row itself.
ALTER TABLE stat_daily ADD COLUMN row_json text;
