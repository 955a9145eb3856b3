import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// echarts-for-react 3.0.6 imports tslib without declaring it; echarts (its peer) ships tslib, so the chart chunk
// uses echarts' copy (its ES module build) instead of a new dependency.
const require = createRequire(import.meta.url);
const echartsDir = dirname(require.resolve('echarts/package.json'));
const tslib = join(dirname(require.resolve('tslib', { paths: [echartsDir] })), 'tslib.es6.js');

// Dev: `npx vite` in apps/web proxies /api to a running `npm start` (PORT 8080).
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { tslib } },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // Evergreen browsers only: no down-levelling of modern syntax.
    target: 'es2022',
    rollupOptions: {
      treeshake: {
        // @carhere/domain is pure rules without I/O (DESIGN.md): a catalogue or translation table the page
        // does not use can be dropped whole instead of shipping with the login page.
        moduleSideEffects: (id) => !id.includes('/packages/domain/'),
      },
    },
  },
});
