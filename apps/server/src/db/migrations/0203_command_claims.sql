-- A command being handed to an NB-IoT platform (gateway/nb/commands.ts). With several gateway processes on the
-- NATS bus, every dispatcher hears the same send request and no TCP session decides which one sends; the process
-- whose claim row lands (or replaces an expired claim) calls the platform, the others leave it.
CREATE TABLE command_claims (
  command_id bigint PRIMARY KEY REFERENCES commands (id) ON DELETE CASCADE,
  claimed_until timestamptz NOT NULL
);
