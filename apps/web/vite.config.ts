import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Dev: `npx vite` in apps/web proxies /api to a running `npm start` (PORT 8080).
export default defineConfig({
  plugins: [react()],
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
