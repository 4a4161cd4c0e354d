import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * The web app's message catalogs (docs/decisions/119-languages.md): English is the source; each
 * language is one PO file in src/locales, compiled by the Vite plugin at build time and loaded as
 * its own chunk. The pseudo-languages are made from English as they compile: en-XA accented,
 * bracketed and 40 % longer (clipped, overflowing or untranslated text shows at a glance), ar-XB
 * right to left.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ar', 'en-XA', 'ar-XB'],
  fallbackLocales: { default: 'en' },
  pseudoLocale: [
    { locale: 'en-XA', prepend: '[', append: ']', extend: 0.4 },
    { locale: 'ar-XB', rightToLeft: true },
  ],
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}',
      include: ['<rootDir>/src'],
      exclude: ['**/*.test.*', '**/test/**'],
    },
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
