-- Configuration platform (factory configPlatformForUser): per device model (devices.device_type, the models of
-- the customer side's deviceConfig) the parameter set a device should carry: server, heartbeat, upload interval,
-- APN, time zone. Pushed to devices and read back as tasks (kinds 'configPush', 'configRead').
CREATE TABLE config_profiles (
  id bigserial PRIMARY KEY,
  model integer NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  params jsonb NOT NULL,
  updated_by text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);
