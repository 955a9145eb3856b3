-- Transfer IP (factory back office): the task items of kind 'transferIp' whose success has been written to the
-- device's recorded host (devices.host). A success is applied once, whether the reply was seen live by this
-- process or found later when the task's items are settled (after a restart), so a later manual change of the
-- host is never overwritten by an old task.
CREATE TABLE transfer_ip_applied (
  item_id bigint PRIMARY KEY REFERENCES task_items (id) ON DELETE CASCADE,
  applied_at timestamptz NOT NULL DEFAULT now()
);
