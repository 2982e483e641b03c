import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The page at `/`, built into dist/web/, which the service serves
 * (src/http/routes/web-page.ts). Nothing is inlined into the HTML: the page's CSP runs no inline
 * script or style, so every script, style and icon is a file of this origin.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
  },
});
