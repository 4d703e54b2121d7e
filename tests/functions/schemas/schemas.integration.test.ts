// The schemas API against the local runtime: managed and custom schemas, revisions and conflicts, the
// specification's refusals, archive, deletion refused while a log source uses the schema, the tester with
// good and bad samples, the script parser through the detection engine (Lambda Invoke), and inference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';

let runtime: TestRuntime;
let token: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  const [admin] = runtime.createdUsers;
  token = (await signIn(runtime, admin.username, admin.temporaryPassword, 'Correct-Horse-42-Battery')).idToken;
});
afterAll(async () => {
  await runtime?.stop();
});

async function call(query: string, variables: Record<string, unknown> = {}) {
  return (await graphql(runtime, { query, variables }, token)).body;
}

async function ok<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await call(query, variables);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

async function refused(query: string, variables: Record<string, unknown>) {
  const body = await call(query, variables);
  expect(body.errors, JSON.stringify(body)).toBeDefined();
  return { type: body.errors?.[0]?.errorType, message: String(body.errors?.[0]?.message ?? '') };
}

const SCHEMA =
  'name revision description referenceURL spec isFieldDiscoveryEnabled parserType isManaged isArchived createdBy logSources { integrationId integrationLabel }';
const CREATE = `mutation($input: CreateSchemaInput!) { createSchema(input: $input) { ${SCHEMA} } }`;
const UPDATE = `mutation($input: UpdateSchemaInput!) { updateSchema(input: $input) { ${SCHEMA} } }`;
const GET = `query($input: GetSchemaInput!) { getSchema(input: $input) { schema { ${SCHEMA} } error { code message } } }`;
const LIST = `query($input: SchemasInput) { schemas(input: $input) { edges { node { name isManaged isArchived logSources { integrationLabel } } } pageInfo { hasNextPage endCursor } } }`;
const TEST = `query($input: TestSchemaInput!) { testSchema(input: $input) { events { lineNumber event } failures { lineNumber message } records truncated } }`;

const SPEC = `fields:
  - name: time
    type: timestamp
    timeFormats: [rfc3339]
    isEventTime: true
  - name: user
    type: string
    required: true
    indicators: [username]
  - name: action
    type: string
`;

type Schema = { name: string; revision: number; logSources: { integrationLabel: string }[] } & Record<string, unknown>;

describe('schemas', () => {
  it('lists the managed schemas and reads one', async () => {
    const list = await ok<{ schemas: { edges: { node: Schema }[] } }>(LIST);
    expect(list.schemas.edges.map((e) => e.node.name)).toContain('AWS.CloudTrail');
    const all = list.schemas.edges.map((e) => e.node.name);
    const paged: string[] = [];
    let after: string | null = null;
    do {
      const page: { schemas: { edges: { node: Schema }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } } = await ok(
        LIST,
        {
          input: { first: 40, after },
        },
      );
      paged.push(...page.schemas.edges.map((e) => e.node.name));
      after = page.schemas.pageInfo.hasNextPage ? page.schemas.pageInfo.endCursor : null;
    } while (after);
    expect(paged).toEqual(all);
    const got = await ok<{ getSchema: { schema: Schema; error: null } }>(GET, { input: { name: 'AWS.CloudTrail' } });
    expect(got.getSchema.schema).toMatchObject({ name: 'AWS.CloudTrail', isManaged: true, revision: 0, parserType: 'none' });
    expect(got.getSchema.schema.spec).toContain('schema: AWS.CloudTrail');
    const missing = await ok<{ getSchema: { schema: null; error: { code: string } } }>(GET, { input: { name: 'Custom.Nope' } });
    expect(missing.getSchema).toEqual({
      schema: null,
      error: { code: 'NotFound', message: 'There is no schema named Custom.Nope' },
    });
  });

  it('creates a custom schema with the Custom. prefix, keeps revisions and refuses stale ones', async () => {
    const created = (
      await ok<{ createSchema: Schema }>(CREATE, {
        input: { name: 'Acme.Audit', description: 'Acme audit log', referenceURL: 'https://acme.test/audit', spec: SPEC },
      })
    ).createSchema;
    expect(created).toMatchObject({ name: 'Custom.Acme.Audit', revision: 1, isManaged: false, createdBy: 'admin@caracal.local' });
    const updated = (
      await ok<{ updateSchema: Schema }>(UPDATE, {
        input: { name: 'Custom.Acme.Audit', revision: 1, description: 'Acme audit log, v2', spec: SPEC },
      })
    ).updateSchema;
    expect(updated).toMatchObject({ revision: 2, description: 'Acme audit log, v2', referenceURL: null });
    const conflict = await refused(UPDATE, { input: { name: 'Custom.Acme.Audit', revision: 1, spec: SPEC } });
    expect(conflict.type).toBe('RevisionConflict');
    expect(conflict.message).toContain('now at revision 2');
    const revisions = await ok<{ schemaRevisions: Schema[] }>(
      'query($n: String!) { schemaRevisions(name: $n) { revision description } }',
      {
        n: 'Custom.Acme.Audit',
      },
    );
    expect(revisions.schemaRevisions).toEqual([
      { revision: 2, description: 'Acme audit log, v2' },
      { revision: 1, description: 'Acme audit log' },
    ]);
    const first = await ok<{ getSchema: { schema: Schema } }>(GET, { input: { name: 'Custom.Acme.Audit', revision: 1 } });
    expect(first.getSchema.schema.description).toBe('Acme audit log');
  });

  it('refuses bad input with the specification messages and writes nothing', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '', spec: SPEC }, 'InvalidInput', 'name: This field is required'],
      [{ name: 'acme', spec: SPEC }, 'InvalidInput', 'name: Must start with a capital letter'],
      [{ name: 'Acme-Audit', spec: SPEC }, 'InvalidInput', 'name: Must be capitalized alphanumeric words separated by dots'],
      [{ name: 'A.B.C.D.E.F', spec: SPEC }, 'InvalidInput', 'name: Must have at most 6 words separated by dots'],
      [
        { name: 'ACME.audit'.replace('audit', 'Audit'), spec: SPEC },
        'InvalidInput',
        'name: You already have a Schema with the same name',
      ],
      [{ name: 'Acme.Other', referenceURL: 'acme', spec: SPEC }, 'InvalidInput', 'referenceURL: Must be a valid URL'],
      [{ name: 'Acme.Other', spec: '' }, 'InvalidInput', 'spec: This field is required'],
      [{ name: 'Acme.Other', spec: 'fields: [' }, 'InvalidLogSchema', 'Invalid YAML'],
      [
        { name: 'Acme.Other', spec: 'fields:\n  - name: a\n    type: strng\n' },
        'InvalidLogSchema',
        'fields[0].type: Must be one of',
      ],
      [
        {
          name: 'Acme.Other',
          spec: 'parser:\n  script:\n    function: "def parse(line): return {}"\nfields:\n  - name: a\n    type: string\n',
        },
        'InvalidLogSchema',
        'parser.script.function: Must be a Python function with the signature `def parse(log):`',
      ],
      [{ name: 'Acme.Other', spec: 'x'.repeat(256 * 1024 + 1) }, 'InvalidInput', 'spec: Must be at most'],
    ];
    for (const [input, type, message] of cases) {
      const error = await refused(CREATE, { input });
      expect(error.type, JSON.stringify(input).slice(0, 80)).toBe(type);
      expect(error.message).toContain(message);
    }
    const list = await ok<{ schemas: { edges: { node: Schema }[] } }>(LIST, { input: { contains: 'Acme.Other' } });
    expect(list.schemas.edges).toEqual([]);
    expect((await refused(UPDATE, { input: { name: 'AWS.CloudTrail', revision: 1, spec: SPEC } })).type).toBe('InvalidUpdate');
  });

  it('creates with field discovery and no spec', async () => {
    const created = (
      await ok<{ createSchema: Schema }>(CREATE, { input: { name: 'Acme.Discovered', spec: '', isFieldDiscoveryEnabled: true } })
    ).createSchema;
    expect(created).toMatchObject({ name: 'Custom.Acme.Discovered', isFieldDiscoveryEnabled: true });
  });

  it('archives, hides archived from the list unless asked, and refuses deleting a schema in use', async () => {
    const source = await ok<{ createHttpLogSource: { id: string } }>(
      'mutation($input: HttpLogSourceInput!) { createHttpLogSource(input: $input) { id } }',
      { input: { label: 'Acme HTTP', logTypes: ['Custom.Acme.Audit'], authType: 'None' } },
    );
    const listed = await ok<{ schemas: { edges: { node: Schema }[] } }>(LIST, { input: { contains: 'acme.audit' } });
    expect(listed.schemas.edges[0].node.logSources).toEqual([{ integrationLabel: 'Acme HTTP' }]);
    const inUse = await refused('mutation($n: String!) { deleteSchema(name: $n) { name } }', { n: 'Custom.Acme.Audit' });
    expect(inUse).toEqual({
      type: 'InUse',
      message:
        "Schema Custom.Acme.Audit is used by the log source 'Acme HTTP': remove it from that source first, or archive the schema instead.",
    });
    await ok('mutation($n: String!) { archiveSchema(name: $n) { isArchived } }', { n: 'Custom.Acme.Audit' });
    const hidden = await ok<{ schemas: { edges: { node: Schema }[] } }>(LIST, { input: { contains: 'acme.audit' } });
    expect(hidden.schemas.edges).toEqual([]);
    const shown = await ok<{ schemas: { edges: { node: Schema }[] } }>(LIST, {
      input: { contains: 'acme.audit', includeArchived: true },
    });
    expect(shown.schemas.edges[0].node.isArchived).toBe(true);
    await ok('mutation($n: String!) { unarchiveSchema(name: $n) { isArchived } }', { n: 'Custom.Acme.Audit' });
    await ok('mutation($id: ID!) { deleteLogSource(id: $id) { id } }', { id: source.createHttpLogSource.id });
    await ok('mutation($n: String!) { deleteSchema(name: $n) { name } }', { n: 'Custom.Acme.Audit' });
    const gone = await ok<{ getSchema: { error: { code: string } } }>(GET, { input: { name: 'Custom.Acme.Audit' } });
    expect(gone.getSchema.error.code).toBe('NotFound');
    const revisions = await refused('query($n: String!) { schemaRevisions(name: $n) { revision } }', { n: 'Custom.Acme.Audit' });
    expect(revisions.type).toBe('NotFound');
  });
});

describe('the tester', () => {
  it('parses good samples and reports each bad line with its number', async () => {
    const samples = [
      JSON.stringify({ time: '2026-01-02T03:04:05Z', user: 'alice', action: 'login' }),
      'not json',
      JSON.stringify({ time: '2026-01-02T03:04:06Z', action: 'logout' }),
      JSON.stringify({ time: '2026-01-02T03:04:07Z', user: 'bob' }),
    ].join('\n');
    const result = (
      await ok<{ testSchema: { events: { lineNumber: number; event: string }[]; failures: unknown[]; records: number } }>(TEST, {
        input: { spec: SPEC, samples, streamType: 'Lines' },
      })
    ).testSchema;
    expect(result.records).toBe(4);
    expect(result.events.map((e) => e.lineNumber)).toEqual([1, 4]);
    expect(JSON.parse(result.events[0].event)).toMatchObject({
      user: 'alice',
      p_log_type: 'Custom.Tested',
      p_any_usernames: ['alice'],
    });
    expect(result.failures).toEqual([
      { lineNumber: 2, message: expect.any(String) },
      { lineNumber: 3, message: expect.stringContaining('user') },
    ]);
  });

  it('reads JSON arrays and refuses oversized samples and invalid specs clearly', async () => {
    const array = JSON.stringify([
      { user: 'a', time: '2026-01-02T03:04:05Z' },
      { user: 'b', time: '2026-01-02T03:04:05Z' },
    ]);
    const result = (
      await ok<{ testSchema: { events: unknown[] } }>(TEST, { input: { spec: SPEC, samples: array, streamType: 'JsonArray' } })
    ).testSchema;
    expect(result.events).toHaveLength(2);
    const big = await refused(TEST, { input: { spec: SPEC, samples: 'x'.repeat(512 * 1024 + 10), streamType: 'Lines' } });
    expect(big).toEqual({ type: 'InvalidInput', message: expect.stringContaining('Sample logs are limited to 512 KB') });
    const many = await refused(TEST, { input: { spec: SPEC, samples: 'a\n'.repeat(1001), streamType: 'Lines' } });
    expect(many.message).toContain('limited to 1000 records');
    const invalid = await refused(TEST, { input: { spec: 'fields: 3', samples: 'a', streamType: 'Lines' } });
    expect(invalid.type).toBe('InvalidLogSchema');
  });

  it('runs a script parser in the detection engine', async () => {
    const spec = `parser:
  script:
    function: |
      def parse(log):
          if log.startswith('#'):
              return None
          user, action = log.split(' ')
          return {'user': user, 'action': action}
fields:
  - name: user
    type: string
    required: true
  - name: action
    type: string
`;
    const result = (
      await ok<{ testSchema: { events: { lineNumber: number; event: string }[]; failures: unknown[] } }>(TEST, {
        input: { spec, samples: '# header\nalice login\nthree words here\nbob logout', streamType: 'Lines' },
      })
    ).testSchema;
    expect(result.events.map((e) => [e.lineNumber, JSON.parse(e.event).user])).toEqual([
      [2, 'alice'],
      [4, 'bob'],
    ]);
    expect(result.failures).toEqual([{ lineNumber: 3, message: 'ValueError: too many values to unpack (expected 2)' }]);
  });

  it('infers a schema from JSON samples', async () => {
    const samples = [
      JSON.stringify({ eventTime: '2026-01-02T03:04:05Z', sourceIp: '10.0.0.1', user: { name: 'alice' } }),
      JSON.stringify({ eventTime: '2026-01-02T03:04:06Z', sourceIp: '10.0.0.2', user: { name: 'bob' } }),
      'plain text',
    ].join('\n');
    const inferred = (
      await ok<{ inferSchema: { spec: string; events: number; failures: { lineNumber: number }[] } }>(
        'query($input: InferSchemaInput!) { inferSchema(input: $input) { spec events failures { lineNumber message } } }',
        { input: { samples, streamType: 'Lines' } },
      )
    ).inferSchema;
    expect(inferred.events).toBe(2);
    expect(inferred.failures.map((f) => f.lineNumber)).toEqual([3]);
    expect(inferred.spec).toContain('name: eventTime');
    expect(inferred.spec).toContain('isEventTime: true');
    const created = await ok<{ createSchema: Schema }>(CREATE, { input: { name: 'Acme.Inferred', spec: inferred.spec } });
    expect(created.createSchema.revision).toBe(1);
  });
});
