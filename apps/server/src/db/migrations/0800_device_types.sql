-- Device types as data (issue 16; spec §3 models, §7 device type find / add or update / detail). A row holds an
-- admin's configuration of one model code; a code without a row uses the seeded catalogue of the domain
-- (SEED_DEVICE_TYPES), so nothing changes for anyone until an admin edits a type.
CREATE TABLE device_types (
  device_type integer PRIMARY KEY,
  name text NOT NULL,
  protocol_type smallint NOT NULL DEFAULT 0,
  icon_type smallint NOT NULL DEFAULT 1,
  features jsonb NOT NULL,
  menu jsonb NOT NULL,
  protocol_menus jsonb NOT NULL DEFAULT '{}',
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
