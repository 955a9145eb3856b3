// Builds the web app (apps/web/dist) when it is missing or older than its sources, so `npm start` serves
// the current UI without rebuilding on every start.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const web = join(root, 'apps/web');
const built = join(web, 'dist/index.html');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = Math.max(
  newest(join(web, 'src')),
  statSync(join(web, 'index.html')).mtimeMs,
  statSync(join(web, 'vite.config.ts')).mtimeMs,
  newest(join(root, 'packages/domain/src')),
);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  console.log('Building the web app…');
  // A production bundle whatever NODE_ENV the caller runs under (vitest sets 'test', which would keep the
  // libraries' development warnings in the bundle).
  execSync('npm run -s build -w apps/web', {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
