import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

const webRoot = decodeURIComponent(new URL('.', import.meta.url).pathname);

/**
 * `vite --config web/vite.config.ts` develops against the local runtime (`npm start`): its config.json is
 * served here with the runtime's origin swapped for the dev server's, and /graphql and /cognito are proxied.
 */
function localRuntime(runtimeUrl: string): Plugin {
  return {
    name: 'caracal-local-runtime',
    configureServer(server) {
      server.middlewares.use('/config.json', (req, res) => {
        fetch(`${runtimeUrl}/config.json`)
          .then(async (response) => {
            if (!response.ok) throw new Error(`the local runtime answered ${response.status}`);
            const config = await response.text();
            res.setHeader('content-type', 'application/json');
            res.end(config.replaceAll(runtimeUrl, `http://${req.headers.host}`));
          })
          .catch((error: unknown) => {
            res.statusCode = 502;
            res.end(`No config.json from the local runtime at ${runtimeUrl} (start it with npm start): ${String(error)}`);
          });
      });
    },
  };
}

// The SPA is served from the site root (CloudFront on AWS, the local runtime on one laptop), which also
// serves `config.json` beside it; nothing is fetched from any other origin, so the app works offline.
export default defineConfig(({ mode, command }) => {
  const runtimeUrl = loadEnv(mode, webRoot, 'CARACAL_').CARACAL_RUNTIME_URL ?? 'http://localhost:3000';
  return {
    root: webRoot,
    // A production build is one whatever NODE_ENV the caller has (vitest's global setup builds with
    // NODE_ENV=test, which gave the tested SPA React's development build: 61 KiB more on the first load).
    ...(command === 'build' && mode === 'production' ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
    base: '/',
    publicDir: 'public',
    plugins: [react(), localRuntime(runtimeUrl)],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: true,
      // .vite/manifest.json: which chunks each screen loads, for the first-load bench (scripts/initial-load.ts).
      manifest: true,
      rolldownOptions: {
        output: {
          // Libraries change less often than the app: their own chunks stay cached across releases. Mantine is
          // not grouped: its components go with the screens that use them (the first page would otherwise carry
          // every one, 127 KiB gzipped). echarts loads only with the screens that draw charts.
          codeSplitting: {
            groups: [
              { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/ },
              { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/ },
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
      proxy: { '/graphql': runtimeUrl, '/cognito': runtimeUrl },
    },
  };
});
