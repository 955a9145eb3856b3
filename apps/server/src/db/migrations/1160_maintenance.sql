-- Maintenance reminders (issue 18): per device, items due by odometer (km), engine hours or a date, with the
-- device's meters taken from the statistics (stat_daily) plus an offset the user sets from the real reading.
CREATE TABLE maintenance_meters (
  device_id bigint PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  -- added to the statistics' total mileage (km) and engine time (hours)
  odometer_offset_km double precision NOT NULL DEFAULT 0,
  engine_hours_offset double precision NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by_name text NOT NULL DEFAULT ''
);

CREATE TABLE maintenance_items (
  id bigserial PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- oil, insurance, inspection, tyres, other (a hint for the screen; the name is what users read)
  kind text NOT NULL DEFAULT 'other',
  due_by text NOT NULL CHECK (due_by IN ('km', 'hours', 'date')),
  due_km double precision,
  due_hours double precision,
  due_date date,
  -- the reminder window before the threshold, in km, hours or days after due_by
  remind_before double precision NOT NULL DEFAULT 0,
  interval_km double precision,
  interval_hours double precision,
  interval_months integer,
  note text NOT NULL DEFAULT '',
  -- set when the `maintenance` event was published for the current threshold; cleared when it changes
  notified_at timestamptz,
  completed_at timestamptz,
  last_done_at timestamptz,
  created_by_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((due_by = 'km' AND due_km IS NOT NULL) OR (due_by = 'hours' AND due_hours IS NOT NULL)
      OR (due_by = 'date' AND due_date IS NOT NULL))
);
CREATE INDEX maintenance_items_device_idx ON maintenance_items (device_id, id);
CREATE INDEX maintenance_items_pending_idx ON maintenance_items (device_id) WHERE notified_at IS NULL AND completed_at IS NULL;
