-- OTA (factory back office): the firmware library and per-device progress of upgrade tasks (tasks of kind 'ota').
CREATE TABLE ota_firmware (
  id bigserial PRIMARY KEY,
  -- the device model (devices.device_type) the firmware is for
  model integer NOT NULL,
  version text NOT NULL,
  notes text NOT NULL DEFAULT '',
  file_name text NOT NULL,
  size integer NOT NULL,
  sha256 text NOT NULL,
  data bytea NOT NULL,
  -- JT/T 808 0x8108 fields
  upgrade_type smallint NOT NULL DEFAULT 0,
  manufacturer text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (model, version)
);

-- One row per device of an OTA task: how far the push got (JT/T 808: sub-packages acknowledged; GT06: bytes
-- downloaded over HTTP through the item's URL token) and how often the firmware was downloaded.
CREATE TABLE ota_items (
  item_id bigint PRIMARY KEY REFERENCES task_items (id) ON DELETE CASCADE,
  task_id bigint NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  firmware_id bigint NOT NULL REFERENCES ota_firmware (id),
  device_id bigint,
  -- GT06: the download URL's secret part
  token text UNIQUE,
  packets_total integer NOT NULL DEFAULT 0,
  packets_acked integer NOT NULL DEFAULT 0,
  resent integer NOT NULL DEFAULT 0,
  bytes_sent bigint NOT NULL DEFAULT 0,
  downloads integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ota_items_device_idx ON ota_items (device_id);
CREATE INDEX ota_items_firmware_idx ON ota_items (firmware_id);
