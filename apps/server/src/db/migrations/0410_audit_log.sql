-- Audit log: one row per successful write through the API (spec: every POST that is not listed as a read in
-- apps/server/src/http/operations.ts). Written after the handler succeeded, off the request's critical path.
-- Searched by admins through POST /api/audit/find (system menu → audit log). Columns:
--   id          ordering key
--   at          when the write was answered (server clock, UTC)
--   user_id     who: the session's user (no foreign key: the row outlives a deleted account)
--   username    who, as the name was at the time
--   role        the caller's role number at the time
--   ip          from which address (request.ip: the TCP peer, or the client named by a trusted proxy)
--   operation   which operation: 'POST /api/user/resetPassword' (method and route path of the OpenAPI document)
--   status      HTTP status of the answer
--   targets     target ids named in the request: {"userIds":["12"],"terminalIDs":["8681…"]} (empty object if none)
--   target_keys the same ids flattened ('user:12', 'device:8681…'), for searching by target
--   changes     before/after of what the operation changed, for expiry, owner, role, password resets and
--               deletions: [{"kind":"user","id":"12","before":{…},"after":{…}}] (null when not tracked);
--               passwords appear only as {"password":"changed"}, never a hash
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  user_id bigint,
  username text NOT NULL DEFAULT '',
  role integer,
  ip text NOT NULL DEFAULT '',
  operation text NOT NULL,
  status integer NOT NULL,
  targets jsonb NOT NULL DEFAULT '{}'::jsonb,
  target_keys text[] NOT NULL DEFAULT '{}',
  changes jsonb
);

CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_user_idx ON audit_log (user_id, at DESC);
CREATE INDEX audit_log_operation_idx ON audit_log (operation, at DESC);
CREATE INDEX audit_log_targets_idx ON audit_log USING gin (target_keys);
