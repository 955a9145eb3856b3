-- Sessions opened by the login page's "try it out" button (POST /api/login/demo) are read-only: every write
-- except commands to the demo's own devices answers 'No permission to use this feature!'.
ALTER TABLE sessions ADD COLUMN demo boolean NOT NULL DEFAULT false;
