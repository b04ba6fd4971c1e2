// The console's build: Preact through Vite, served by the API under /console/ (src/api/console.ts).
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The CSP allows no inline script: every script is a file under /console/assets/.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
