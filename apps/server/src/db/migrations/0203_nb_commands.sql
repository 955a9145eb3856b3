-- Commands to NB-IoT devices (gateway/nb/commands.ts).
-- A command being handed to the IoT platform: with several gateway processes on the NATS bus, every dispatcher
-- hears the same send request and no TCP session decides which one sends; the process whose claim row lands (or
-- replaces an expired claim) calls the platform, the others leave it.
CREATE TABLE command_claims (
  command_id bigint PRIMARY KEY REFERENCES commands (id) ON DELETE CASCADE,
  claimed_until timestamptz NOT NULL
);
-- What the reply or the platform's status notification will name the command by — the platform's command id,
-- the JT/T 808 serial of the frame sent — kept with the command, so any process, and a process after a restart,
-- matches them (a GT06 frame carries the command id itself).
ALTER TABLE commands ADD COLUMN platform_command_id text, ADD COLUMN reply_serial integer;
CREATE INDEX commands_platform_command_id_idx ON commands (platform_command_id) WHERE platform_command_id IS NOT NULL;
