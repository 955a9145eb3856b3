-- The device list orders IMEIs in code-point order (COLLATE "C"), as the domain's comparator does, whatever
-- the database's default collation. The not-activated segment walks this index in that order.
DROP INDEX IF EXISTS devices_unactivated_idx;
CREATE INDEX devices_unactivated_idx ON devices (terminal_id COLLATE "C") WHERE activated_at IS NULL;
