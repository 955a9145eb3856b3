-- AGPS (factory back office): assistance data files, one per provider and kind (e.g. 'ublox' + 'mga_online'),
-- uploaded by staff or refreshed from an upstream URL on a schedule, served to devices at a stable URL
-- (/api/agps/file/<provider>/<kind>) with Last-Modified and ETag; each download is counted.
CREATE TABLE agps_files (
  id bigserial PRIMARY KEY,
  provider text NOT NULL,
  kind text NOT NULL,
  file_name text NOT NULL DEFAULT '',
  content_type text NOT NULL DEFAULT 'application/octet-stream',
  data bytea,
  size integer NOT NULL DEFAULT 0,
  sha256 text NOT NULL DEFAULT '',
  -- when the current content was received (upload or a changed upstream answer): the file's age and Last-Modified
  modified_at timestamptz,
  -- refresh from here every refresh_minutes (NULL: uploaded by hand only)
  upstream_url text,
  refresh_minutes integer,
  next_refresh_at timestamptz,
  -- the upstream's own validators, sent back so an unchanged file costs no transfer
  upstream_etag text,
  upstream_last_modified text,
  last_fetch_at timestamptz,
  last_error text NOT NULL DEFAULT '',
  downloads bigint NOT NULL DEFAULT 0,
  updated_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, kind)
);
CREATE INDEX agps_files_refresh_idx ON agps_files (next_refresh_at) WHERE upstream_url IS NOT NULL;
