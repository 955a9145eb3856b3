-- Tasks: one way to do work for many devices (shared/DESIGN.md). A task says what to do (kind, parameters),
-- who asked and when, and until when it may still be done; it has one item per device, each in one state of
-- the set used everywhere: pending → sent → success | failed | timeout, or cancelled. The spec's command
-- results 1 / 2 / 3 map to success / timeout / failed.
CREATE TABLE tasks (
  id bigserial PRIMARY KEY,
  -- command | ota | transferIp | config | import | …
  kind text NOT NULL,
  -- free text shown in lists (the command content, the firmware name, …)
  title text NOT NULL DEFAULT '',
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  creator_name text NOT NULL DEFAULT '',
  -- the creator's hierarchy path when it was created: who may see the task (the creator's ancestors)
  creator_path text NOT NULL DEFAULT '',
  -- main: made on the customer site; factory: in the factory back office
  area text NOT NULL DEFAULT 'main' CHECK (area IN ('main', 'factory')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  cancelled_at timestamptz,
  total integer NOT NULL DEFAULT 0
);
CREATE INDEX tasks_created_idx ON tasks (id DESC);
CREATE INDEX tasks_creator_path_idx ON tasks (creator_path text_pattern_ops, id DESC);

CREATE TABLE task_items (
  id bigserial PRIMARY KEY,
  task_id bigint NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  device_id bigint REFERENCES devices (id) ON DELETE SET NULL,
  terminal_id text NOT NULL,
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'sent', 'success', 'failed', 'timeout', 'cancelled')),
  -- the command that carries the item to the device, when the task is made of commands
  command_id bigint REFERENCES commands (id) ON DELETE SET NULL,
  reply text,
  detail text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  done_at timestamptz
);
CREATE INDEX task_items_task_idx ON task_items (task_id, id);
CREATE INDEX task_items_task_state_idx ON task_items (task_id, state);
CREATE INDEX task_items_command_idx ON task_items (command_id) WHERE command_id IS NOT NULL;
CREATE INDEX task_items_terminal_idx ON task_items (terminal_id, id DESC);
