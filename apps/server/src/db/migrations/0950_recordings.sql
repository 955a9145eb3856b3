-- Recordings (issue 21, spec §6 factory:tape_download and the customer's "Record audio" command): files a
-- JT/T 808 terminal uploads (0x0801 multimedia data, reassembled from its sub-packages), audio first. The file
-- is kept in the row (bounded by RECORDING_MAX_BYTES) and removed after the 'recording' log retention.
CREATE TABLE recordings (
  id bigserial PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  terminal_id text NOT NULL,
  -- The terminal's multimedia id, type (0 image, 1 audio, 2 video), format (0 JPEG, 1 TIF, 2 MP3, 3 WAV,
  -- 4 WMV), event (0 platform command, 1 timer, 2 robbery alarm, 3 collision, ...) and channel.
  media_id bigint NOT NULL,
  media_type smallint NOT NULL,
  format smallint NOT NULL,
  event smallint NOT NULL,
  channel smallint NOT NULL,
  size integer NOT NULL,
  -- Length in milliseconds when the format tells it (WAV header, MP3 frame header); null otherwise.
  duration_ms integer,
  -- The record-audio command that asked for it (event 0), when one was sent shortly before.
  command_id bigint REFERENCES commands (id) ON DELETE SET NULL,
  lat double precision,
  lon double precision,
  data bytea NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recordings_device_idx ON recordings (device_id, received_at DESC, id DESC);
CREATE INDEX recordings_time_idx ON recordings (received_at);
CREATE INDEX recordings_command_idx ON recordings (command_id) WHERE command_id IS NOT NULL;
