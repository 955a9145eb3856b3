-- Share links (issue 18): one device's live position shared through an unguessable link for 1 hour to 7 days.
-- Only the SHA-256 of the token is kept (the link is a bearer credential: it is shown once, at creation). A link
-- is valid while not revoked, not expired, and the device still belongs to the account that owned it when the
-- link was made (a transferred device is not shown to the old owner's audience).
CREATE TABLE share_links (
  id bigserial PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  owner_id bigint,
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_by_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_by_name text,
  last_viewed_at timestamptz
);
CREATE INDEX share_links_device_idx ON share_links (device_id, created_at DESC);
