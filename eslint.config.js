// ESLint: TypeScript everywhere, React hooks rules in the web app.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The areas of functions/lib in one direction, lowest first: an area may import only the areas before it (through
// their doors). Where a lower area must tell a higher one something, the higher passes a callback in, or the lower
// emits a message (a queue, an AlertChanged); it never imports it. Derived from the areas' imports (a topological
// order); a new area takes its place here (tests/lint/area-direction.test.ts fails until it does).
export const AREA_ORDER = [
  'net',
  'lake',
  'notifications',
  'feedback',
  'users',
  'auth',
  'settings',
  'app-config',
  'schemas',
  'search',
  'alerts',
  'log-sources',
  'detections',
  'runs',
  'lookups',
  'pipeline',
  'destinations',
  'delivery',
  'demo',
];

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// An area of functions/lib uses another only through the other's door, and never the API or a function's own
// modules (data flows from the functions into functions/lib, not back).
const LIB_DOOR_PATTERNS = [
  {
    regex: '^\\.\\./[^./][^/]*/',
    message: 'Use another area through its door: import functions/lib/<other>, not a module inside it.',
  },
  {
    regex: '^\\.\\./\\.\\./(?!\\.\\.)',
    message: 'functions/lib serves the API and the functions; it does not import them.',
  },
];

/** One config block per area: the doors, and every area above it refused. */
const areaDirection = AREA_ORDER.map((area, index) => ({
  files: [`functions/lib/${area}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...LIB_DOOR_PATTERNS,
          ...AREA_ORDER.slice(index + 1).map((higher) => ({
            regex: `^\\.\\./${escapeRegex(higher)}(/|$)`,
            message: `${area} is below ${higher}: it may not import it; pass a callback or emit a message (the order: AREA_ORDER in eslint.config.js).`,
          })),
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.local/',
      '.test-artifacts/',
      '.scratch/',
      'cdk.out/',
      'web/dist/',
      'functions/lib/graphql-types.ts',
      'web/src/lib/graphql/types.ts',
      '**/__pycache__/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // One door per area: the API, the handlers and the functions' own modules use an area of functions/lib only
    // through its index.ts, beside the shared modules at functions/lib's root (clients, env, errors, appsync,
    // dynamo-lists, graphql-types).
    files: ['functions/**/*.ts'],
    ignores: ['functions/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+lib/[^/]+/',
              message: 'Use an area of functions/lib through its door: import functions/lib/<area>, not a module inside it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The doors for a file of functions/lib outside the ordered areas (the blocks below repeat them, as a later
    // block's options replace an earlier one's).
    files: ['functions/lib/*/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: LIB_DOOR_PATTERNS }] },
  },
  ...areaDirection,
  {
    // The lake has one door (functions/lib/lake): only it names the lake bucket, places lake files by the layout's
    // partitions, and calls Athena and Glue; everything else reads and writes the lake through it (rows in, rows
    // out, platform queries, tables). no-restricted-syntax, so the import rules of the blocks above stay whole.
    files: ['functions/**/*.ts'],
    ignores: ['functions/lib/lake/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='ENV'][property.name='lakeBucket']",
          message:
            'The lake bucket is the lake door’s (functions/lib/lake): write and read through it (writeLakeRows, LakeWriter, objectEventLines, lakeQueryRows), or ask it (lakeBucketName, hasLake).',
        },
        {
          selector:
            'ImportDeclaration[source.value=/(^|\\/)core\\/lake\\/layout$/] > ImportSpecifier[imported.name=/^(partitionPath|partitionsBetween)$/]',
          message:
            'Lake files are placed and found by the lake door (functions/lib/lake: its writer and readers), not by partition paths written by hand.',
        },
        {
          selector: 'ImportDeclaration[source.value=/^@aws-sdk\\/client-(athena|glue)$/]',
          message: 'Athena and Glue are the lake door’s (functions/lib/lake): run queries and make tables through it.',
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Features render from props and call back: the screen (or the shell) that uses one fetches, saves,
    // signs in and navigates for it.
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^@apollo/client', message: 'Features render from props: the screen fetches and saves.' },
            { regex: '(^|/)screens(/|$)', message: 'Nothing imports a screen but the router.' },
            { regex: '(^|/)app/shell(/|$)', message: 'Features render inside any screen: they do not reach into the shell.' },
            {
              regex: '(^|/)lib/auth/AuthContext$',
              importNames: ['useAuth', 'AuthContext'],
              message: 'Features call back: the screen signs in, verifies and changes passwords.',
            },
            {
              regex: '(^|/)lib/(permissions|auth/useTotpSetup)(/|$)',
              message: 'Features render from props: the screen reads permissions and starts authenticator setup.',
            },
            {
              regex: '^react-router(-dom)?$',
              importNames: ['useNavigate', 'useParams', 'useSearchParams', 'useLocation', 'Navigate'],
              message: 'Features render links; the screen navigates and reads the route.',
            },
          ],
        },
      ],
    },
  },
  {
    // Nothing imports a screen but the router: a screen is reached only through its route.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/app/AppRoutes.tsx', 'web/src/app/guards.tsx', 'web/src/features/**', 'web/src/screens/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)screens(/|$)', message: 'Nothing imports a screen but the router (app/AppRoutes.tsx).' }] },
      ],
    },
  },
  {
    // One screen does not import another: what two screens share is a feature, a component or a lib module.
    files: ['web/src/screens/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[A-Z]',
              caseSensitive: true,
              message: 'One screen does not import another: share a feature instead.',
            },
          ],
        },
      ],
    },
  },
  {
    // Paths come from web/src/app/routes.ts, which encodes what it is given: none is written by hand.
    files: ['web/src/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'JSXAttribute[name.name=/^(to|path)$/] > Literal[value=/^\\//]',
          'JSXAttribute[name.name=/^(to|path)$/] > JSXExpressionContainer > :matches(TemplateLiteral, BinaryExpression)',
          "CallExpression[callee.name='navigate'] > :matches(TemplateLiteral, BinaryExpression, Literal[value=/^\\//]).arguments:first-child",
        ].map((selector) => ({ selector, message: 'Build paths with web/src/app/routes.ts, not by hand.' })),
      ],
    },
  },
);
