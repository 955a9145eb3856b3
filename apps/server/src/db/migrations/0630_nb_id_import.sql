-- The NB-IoT id registry (factory idManager) imports text or xlsx as a job like the other factory imports.
ALTER TABLE import_jobs DROP CONSTRAINT IF EXISTS import_jobs_kind_check;
ALTER TABLE import_jobs ADD CONSTRAINT import_jobs_kind_check
  CHECK (kind IN ('devices', 'users', 'stockImei', 'stockDevice', 'cards', 'nbIds'));
