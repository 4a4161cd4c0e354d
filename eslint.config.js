import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const serverFeatures = ['auth', 'todos', 'groups', 'statistics', 'system'];
const webFeatures = ['auth', 'todos', 'groups', 'statistics', 'theme'];

/** A feature folder may not reach into a sibling feature's files. */
function featureBoundaries(root, features) {
  return features.map((feature) => ({
    files: [`${root}/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: features
            .filter((other) => other !== feature)
            .map((other) => ({
              group: [`**/${other}/*`, `../${other}`, `../../${other}/*`],
              message: `Features do not import each other: ${feature} may not import ${other}.`,
            })),
        },
      ],
    },
  }));
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      'e2e/screenshots/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      '.reports/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-console': ['error', { allow: ['warn', 'error', 'info', 'log'] }],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Only web/src/lib/api-client.ts calls fetch.' },
      ],
    },
  },
  {
    files: ['web/src/lib/api-client.ts', 'web/**/*.test.{ts,tsx}', 'web/src/test/**'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/web/**'], message: 'contract imports no app code.' },
          ],
        },
      ],
    },
  },
  ...featureBoundaries('server/src', serverFeatures),
  ...featureBoundaries('web/src/features', webFeatures),
  {
    files: ['scripts/**', 'e2e/**', 'bench/**', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
  prettier,
);
