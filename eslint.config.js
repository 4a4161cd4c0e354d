import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import lingui from 'eslint-plugin-lingui';
import jsxTextIsMessage from './scripts/eslint/jsx-text-is-message.js';

const root = import.meta.dirname;

/** The folders directly inside `dir`, so a new feature folder is checked without editing this. */
function foldersIn(dir, except = []) {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !except.includes(entry.name))
    .map((entry) => entry.name);
}

// server/src has one folder per resource; the others hold what every resource
// uses (db, plugins, shared, test helpers) or test the whole app from outside (security).
const serverShared = ['db', 'plugins', 'shared', 'test', 'security'];
const serverFeatures = foldersIn('server/src', serverShared);

/**
 * The files directly in server/src: the ones that compose and run the app (app.ts, main.ts,
 * cli.ts, drain.ts…), and the settings every part reads (config.ts, and secrets.ts for the
 * secrets kept in DATA_DIR). Found by listing, like the folders.
 */
const serverSettings = ['config.ts', 'secrets.ts'];
const serverTopLevel = readdirSync(path.join(root, 'server/src'), { withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
  .map((entry) => entry.name);
const serverComposers = serverTopLevel.filter((name) => !serverSettings.includes(name));
const webFeatures = foldersIn('web/src/features');

/**
 * The files a server feature offers its siblings: every change records its events through
 * statistics' write side (docs/decisions/043-statistics-write-api.md); account settings check
 * and store passwords, end sessions, check Google credentials and forget failed logins (after a
 * password reset) as sign-in does; a change of two-factor codes or passkeys ends the other
 * sessions, tokens and feed as a password change does (docs/decisions/110-ending-other-access-with-a-factor-change.md),
 * and the operator creates accounts as sign-up does
 * (docs/decisions/046-accounts-and-mail.md); a todo's change of
 * due time reschedules its reminder in the same transaction (docs/decisions/064-reminders.md);
 * every sign-in asks the two-factor service whether a second step comes first
 * (docs/decisions/081-two-factor-codes.md); CalDAV writes through the todo and group services,
 * the trash and the feed's iCalendar rules, as the web app's calls do
 * (docs/decisions/085-caldav.md); an iCalendar import reads each task with CalDAV's VTODO codec,
 * so a file imports as the same tasks would sync (docs/decisions/138-importers.md); sign-in
 * adopts the browser's zone as the account's until one is chosen, and background work reads the
 * account's preferences (docs/decisions/118-account-preferences.md); the exports and the
 * calendar feed start from the todo the API answers (todos/rows.ts,
 * docs/decisions/158-one-todo-shape.md); an OpenID Connect link flow links through the account's
 * identities, and the JSON export describes the account as GET /api/account does
 * (docs/decisions/155-account-by-concern.md).
 */
const serverFeatureApis = {
  statistics: ['record-events.ts'],
  reminders: ['schedule.ts'],
  auth: [
    'passwords.ts',
    'refresh-tokens.ts',
    'google-id-token.ts',
    'login-limits.ts',
    'new-account.ts',
    'end-access.ts',
  ],
  'two-factor': ['service.ts'],
  todos: ['service.ts', 'trash.ts', 'rows.ts'],
  groups: ['service.ts'],
  calendar: ['ics.ts'],
  caldav: ['vtodo.ts'],
  account: ['preferences.ts', 'identities.ts', 'rows.ts'],
};

/** A feature folder may not reach into a sibling feature's files, except the one it offers. */
function featureZones(dir, features, apis = {}) {
  return features.flatMap((feature) =>
    features
      .filter((other) => other !== feature)
      .map((other) => ({
        target: `${dir}/${feature}`,
        from: `${dir}/${other}`,
        except: apis[other] ?? [],
        message: `Features do not import each other: ${feature} may not import a sibling feature.`,
      })),
  );
}

/** The app's composers are imported by the other top-level files and by tests only. */
const composersZone = {
  target: [...serverFeatures, ...serverShared.filter((folder) => folder !== 'test')].map(
    (folder) => `server/src/${folder}`,
  ),
  from: serverComposers.map((name) => `server/src/${name}`),
  message:
    'The files directly in server/src compose and run the app: only tests and the other top-level files import them (config.ts and secrets.ts are for everyone).',
};

/** Web files whose every text is a message of the catalogs (web/src/locales). */
const TRANSLATED = [
  'web/src/app/**/*.tsx',
  'web/src/components/**/*.tsx',
  'web/src/features/**/*.tsx',
];

/** Names written the same in every language. */
const SAME_IN_EVERY_LANGUAGE = [
  'Tally',
  'Google',
  'ntfy',
  'Gotify',
  'Pushover',
  'CalDAV',
  'Redis',
  'IMAP',
];

/**
 * Checked on resolved files, so a relative path, a #web/ import and an alias are all caught.
 * One way: app/ → features/ → components/, lib/ (web); features → db, plugins, shared (server).
 */
const boundaryZones = [
  {
    target: 'contract',
    from: ['server', 'web'],
    message: 'contract imports no app code.',
  },
  ...featureZones('server/src', serverFeatures, serverFeatureApis),
  ...serverShared
    .filter((folder) => folder !== 'security' && folder !== 'test')
    .map((folder) => ({
      target: `server/src/${folder}`,
      from: serverFeatures.map((feature) => `server/src/${feature}`),
      message: `server/src/${folder} serves every feature and imports none.`,
    })),
  composersZone,
  {
    target: serverSettings.map((name) => `server/src/${name}`),
    from: [...serverFeatures, 'plugins', 'security'].map((folder) => `server/src/${folder}`),
    message: 'config.ts and secrets.ts are read by every part and import no feature or plugin.',
  },
  ...featureZones('web/src/features', webFeatures),
  {
    target: 'web/src/features',
    from: 'web/src/app',
    message: 'Features do not import app/: the routes in app/ compose the features.',
  },
  {
    target: ['web/src/components', 'web/src/lib'],
    from: ['web/src/features', 'web/src/app'],
    message: 'components/ and lib/ are shared by every feature and import none (nor app/).',
  },
];

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
      'release/**',
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
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              // The main entry holds every TypeBox schema (22 KB gzip): a chunk that takes one
              // constant from it takes them all.
              name: '@tally/contract',
              allowTypeImports: true,
              message:
                'The web imports values from the contract only through its light entries (@tally/contract/constants, /dates, /routes, /quick-add, /search-words, /todo-shape, /todo-text); types from anywhere.',
            },
          ],
          patterns: [
            {
              group: ['../../*'],
              message: 'From another folder of web/src, import through #web/ (web/package.json).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/**/*.test.{ts,tsx}', 'web/src/test/**'],
    ...lingui.configs['flat/recommended'],
  },
  {
    // The screens already in the catalogs (docs/decisions/119-languages.md): a text written there
    // outside a message fails. The list grows until it is all of web/src.
    files: TRANSLATED,
    // A test's own markup is scaffolding nobody reads in the app.
    ignores: ['**/*.test.tsx'],
    plugins: { tally: { rules: { 'jsx-text-is-message': jsxTextIsMessage } } },
    rules: { 'tally/jsx-text-is-message': ['error', { allow: SAME_IN_EVERY_LANGUAGE }] },
  },
  {
    // Tests never reach the bundle: the fake backend checks its answers against the schemas.
    files: ['web/**/*.test.{ts,tsx}', 'web/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*'],
              message: 'From another folder of web/src, import through #web/ (web/package.json).',
            },
          ],
        },
      ],
    },
  },
  {
    // The service worker has no session and no api-client: a notification's button posts its
    // signed action link itself.
    files: [
      'web/src/lib/api-client.ts',
      'web/src/sw/push.ts',
      'web/**/*.test.{ts,tsx}',
      'web/src/test/**',
    ],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['contract/src/**/*.ts', 'server/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Parse imported .ts/.tsx files too, so no-cycle can follow them.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      // The same resolution as the compilers: tsconfig paths (#web/*), .js → .ts in the server,
      // and the contract's sources through its @tally/source export condition.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['contract/tsconfig.json', 'server/tsconfig.json', 'web/tsconfig.json'],
          conditionNames: ['@tally/source', 'types', 'import', 'default'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // A test may build or run the whole app (app.ts, cli.ts) to test its part through it.
    files: ['server/src/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: boundaryZones.filter((zone) => zone !== composersZone) },
      ],
    },
  },
  {
    // Rows or ids per statement are sliced in one place (shared/batches.ts), so the size that
    // keeps both databases under their parameter limits is chosen once.
    files: ['server/src/**/*.ts'],
    // csv.ts slices a text (carrying a character across), not items.
    ignores: [
      'server/src/**/*.test.ts',
      'server/src/test/**',
      'server/src/shared/batches.ts',
      'server/src/transfer/csv.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ForStatement[update.operator='+='] CallExpression[callee.property.name='slice']",
          message: 'Slice items into statements with batches() from server/src/shared/batches.ts.',
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'e2e/**', 'bench/**', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
  prettier,
);
