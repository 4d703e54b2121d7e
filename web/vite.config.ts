import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = decodeURIComponent(new URL('.', import.meta.url).pathname);

// The SPA is served from the site root (CloudFront on AWS, the local runtime on one laptop), which also
// serves `config.json` beside it; nothing is fetched from any other origin, so the app works offline.
export default defineConfig({
  root: webRoot,
  base: '/',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    host: '127.0.0.1',
    fs: { allow: ['..'] },
  },
});
