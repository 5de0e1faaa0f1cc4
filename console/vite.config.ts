// Brook Console's build: `npm run build` runs `vite build --config console/vite.config.ts`, writing the static
// assets that the broker serves at /console/ (src/console/) into dist/console-ui/. Hashed file names let the
// broker cache them for a year.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console-ui', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
});
