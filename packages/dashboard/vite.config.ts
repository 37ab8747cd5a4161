import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `pnpm dev:dashboard`: hot reload on :5173, the API proxied to a running server (`pnpm start`, or
// DASHBOARD_API_ORIGIN). The build (`pnpm build:dashboard`, and `pnpm start` when it is missing or stale)
// writes dist/, which the server serves at `/` (docs/decisions.md, "Dashboard").
const apiOrigin = process.env.DASHBOARD_API_ORIGIN ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server sends a CSP without 'unsafe-inline': nothing may be inlined into index.html.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    proxy: { '/api': { target: apiOrigin, changeOrigin: false } },
  },
});
