import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { lingui } from '@lingui/vite-plugin';
import { fileURLToPath } from 'node:url';

/** The page background of each theme (index.css: slate-50 / slate-950). */
const LIGHT_BACKGROUND = '#f8fafc';

export default defineConfig({
  plugins: [
    // Messages are compiled here, at build time: no message parser reaches the browser
    // (docs/decisions/119-languages.md).
    lingui({
      macroTransform: true,
      configPath: fileURLToPath(new URL('./lingui.config.ts', import.meta.url)),
      failOnCompileError: true,
    }),
    react(),
    tailwindcss(),
    // docs/decisions/059-offline-and-installable.md: our own worker (src/sw/sw.ts), given the
    // precache list at build time; registered by src/app/register-sw.ts, a file, so the CSP
    // needs no inline script.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      injectRegister: false,
      injectManifest: {
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        globIgnores: ['**/*.map'],
      },
      // globPatterns above already lists the icons and public files.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'Tally',
        short_name: 'Tally',
        description: 'Your personal to-do list with groups and statistics',
        start_url: '/todos',
        scope: '/',
        display: 'standalone',
        // The installed app is in the phone's share sheet: a shared page or text opens the Add
        // Todo form filled in (SHARE_PATH in contract/src/constants.ts; docs/product.md).
        share_target: {
          action: '/share',
          method: 'GET',
          // Chromium's manifest check asks for it even for GET, which sends no body.
          enctype: 'application/x-www-form-urlencoded',
          params: { title: 'title', text: 'text', url: 'url' },
        },
        background_color: LIGHT_BACKGROUND,
        theme_color: '#1d4ed8',
        icons: [
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
    }),
  ],
  resolve: { conditions: ['@tally/source'] },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    // Maps for the developer's own use, named in no bundle; the server never serves them and the
    // release package leaves them out (docs/decisions/074).
    sourcemap: 'hidden',
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Screens are lazy chunks, imported on first render: on a busy 2-core CI machine that first
    // import can take seconds (src/test/setup.ts waits as long in its finds).
    testTimeout: 20_000,
  },
});
