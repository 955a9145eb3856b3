-- Login security (issue 12): login throttling shared by every API process, a record of every lock,
-- TOTP two-factor sign-in, pending second-step logins, and passwords that must be changed at first sign-in.

-- Failed logins per (account, address). `account` is the lower-cased username ('imei:<IMEI>' for the device
-- login); `address` is the client address, or '*' for the account-wide row (failures from every address).
-- The address-wide row (account '*') counts one address's failures over every account (password spraying).
CREATE TABLE login_throttle (
  account text NOT NULL,
  address text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  last_failure_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  PRIMARY KEY (account, address)
);
CREATE INDEX login_throttle_last_idx ON login_throttle (last_failure_at);

-- Every lock the throttle imposed: which scope ('address': one account from one address, 'account': the
-- account-wide ceiling, 'sprayer': one address over many accounts), how many failures, until when.
CREATE TABLE login_locks (
  id bigserial PRIMARY KEY,
  account text NOT NULL,
  address text NOT NULL,
  scope text NOT NULL CHECK (scope IN ('address', 'account', 'sprayer')),
  failures integer NOT NULL,
  locked_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_locks_created_idx ON login_locks (created_at DESC);

-- Password set by someone else (reset, import, device-account sale): the account changes it at first sign-in.
ALTER TABLE users ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
-- TOTP (RFC 6238): the base32 secret (never returned after enrolment), whether enrolment is confirmed, the
-- last accepted time step (a code is accepted once), and a secret offered but not yet confirmed.
ALTER TABLE users ADD COLUMN totp_secret text;
ALTER TABLE users ADD COLUMN totp_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN totp_last_step bigint NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN totp_pending_secret text;

-- A correct password of an account with two-factor sign-in opens a ticket (sha256 of a random token) that the
-- second step (the code) exchanges for a session. Short-lived; kept in the database so any process can answer.
CREATE TABLE login_tickets (
  id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  remember boolean NOT NULL DEFAULT false,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL
);
CREATE INDEX login_tickets_user_idx ON login_tickets (user_id);

-- Fixed-window request counters shared by every process (e.g. 'findUsername:<user id>'): how many calls since
-- window_start.
CREATE TABLE request_counters (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);
