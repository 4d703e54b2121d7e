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
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: their own chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/ },
            { name: 'mantine', test: /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll.*|react-number-format)[\\/]/ },
            { name: 'amplify', test: /node_modules[\\/](aws-amplify|@aws-amplify|@aws-crypto|@smithy|@aws-sdk)[\\/]/ },
            { name: 'apollo', test: /node_modules[\\/](@apollo|graphql|rxjs|optimism|@wry)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    fs: { allow: ['..'] },
  },
});
