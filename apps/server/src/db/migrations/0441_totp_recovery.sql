-- Two-factor recovery (issue 12): one-time recovery codes shown once at enrolment, kept as SHA-256 of the code
-- (80 random bits each); a code is used up when it signs in (used_at).
CREATE TABLE totp_recovery_codes (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, code_hash)
);
