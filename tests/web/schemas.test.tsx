// @vitest-environment jsdom
import { cleanup, renderHook, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../web/src/app/AppRoutes';
import { FieldsTree } from '../../web/src/features/schemas/FieldsTree';
import { SCHEMAS_LIST_QUERY } from '../../web/src/screens/Schemas/schemas.operations';
import { useSchemaCheck } from '../../web/src/features/schemas/useSchemaCheck';
import { locate } from '../../web/src/lib/editor/yamlLocate';
import { fakeAuth, renderInApp, signedInAs } from './support/render';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

const node = (name: string, extra: Record<string, unknown> = {}) => ({
  __typename: 'Schema',
  name,
  description: null,
  isManaged: false,
  isArchived: false,
  parserType: 'none',
  updatedAt: null,
  logSources: [],
  ...extra,
});

const listMock = {
  request: { query: SCHEMAS_LIST_QUERY, variables: { input: { includeArchived: false, contains: null } } },
  result: {
    data: {
      schemas: {
        __typename: 'SchemaConnection',
        edges: [
          { __typename: 'SchemaEdge', node: node('AWS.CloudTrail', { isManaged: true, description: 'CloudTrail' }) },
          {
            __typename: 'SchemaEdge',
            node: node('Custom.Acme.Audit', {
              logSources: [{ __typename: 'SchemaLogSource', integrationId: 's1', integrationLabel: 'Acme HTTP' }],
            }),
          },
        ],
        pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: 'Custom.Acme.Audit' },
      },
    },
  },
};

describe('the schemas list', () => {
  it('shows managed and custom schemas with the sources using each, and New Schema to editors', async () => {
    renderWithApi(<AppRoutes />, { at: '/configure/schemas/', permissions: ['LogSourceModify'], mocks: [listMock] });
    const table = await screen.findByRole('table', { name: 'Schemas' });
    expect(await within(table).findByRole('link', { name: 'Custom.Acme.Audit' })).toBeTruthy();
    expect(within(table).getByText('Acme HTTP')).toBeTruthy();
    expect(within(table).getByText('Managed')).toBeTruthy();
    expect(within(table).getAllByText('No log sources')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Schemas' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New Schema' }).getAttribute('href')).toBe('/configure/schemas/new/');
  });

  it('is not shown to users without log source permissions', async () => {
    renderWithApi(<AppRoutes />, { at: '/configure/schemas/', permissions: ['AlertRead'], mocks: [listMock] });
    await screen.findByRole('button', { name: 'Profile menu' });
    expect(screen.queryByRole('table', { name: 'Schemas' })).toBeNull();
  });

  it('sends an anonymous visitor to sign in', async () => {
    renderInApp(<AppRoutes />, { at: '/configure/schemas/' });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
  });
});

describe('the fields tree', () => {
  it('nests object and array fields and marks discovered ones', () => {
    renderInApp(
      <FieldsTree
        fields={[
          { name: 'user', type: 'object', fields: [{ name: 'id', type: 'string', required: true }] },
          { name: 'tags', type: 'array', element: { type: 'string' }, isDiscovered: true },
        ]}
      />,
      { auth: fakeAuth(signedInAs) },
    );
    const tree = screen.getByRole('tree', { name: 'Fields' });
    const id = within(tree).getByRole('treeitem', { name: 'id' });
    expect(id.getAttribute('aria-level')).toBe('2');
    expect(within(tree).getByText('array<string>')).toBeTruthy();
    expect(within(tree).getByText('discovered')).toBeTruthy();
  });
});

describe('locating a problem in the YAML', () => {
  const text = 'fields:\n  - name: a\n    type: strng\n  - name: b\n    type: object\n';
  it('finds the deepest node of the path', () => {
    expect(locate(text, 'fields[0].type')).toMatchObject({ startLine: 3, endLine: 3 });
    expect(locate(text, 'fields[1]')).toMatchObject({ startLine: 4 });
    expect(locate(text, 'fields[1].fields')).toMatchObject({ startLine: 4 });
  });
  it('falls back to the first line', () => {
    expect(locate(text, '')).toMatchObject({ startLine: 1 });
    expect(locate('not: [valid', 'fields[0]')).toMatchObject({ startLine: 1 });
  });
});

describe('the live check of the editor', () => {
  const values = (spec: string, name = 'Acme.Audit') => ({
    name,
    description: '',
    referenceURL: '',
    spec,
    isFieldDiscoveryEnabled: false,
  });

  it('puts a marker on the line of each problem and counts the errors', async () => {
    const { result } = renderHook(() => useSchemaCheck(values('fields:\n  - name: a\n    type: strng\n'), []));
    await waitFor(() => expect(result.current.errorCount).toBe(1));
    expect(result.current.markers[0]).toMatchObject({
      startLine: 3,
      severity: 'error',
      message: expect.stringContaining('fields[0].type'),
    });
  });

  it('marks a YAML syntax error where the parser stopped', async () => {
    const { result } = renderHook(() => useSchemaCheck(values('fields: a: b'), []));
    await waitFor(() => expect(result.current.errorCount).toBe(1));
    expect(result.current.markers[0].message).toMatch(/^Invalid YAML/);
  });

  it('reports a duplicate name as a form error, not a marker', async () => {
    const { result } = renderHook(() =>
      useSchemaCheck(values('fields: [{name: a, type: string}]', 'Acme.AUDIT'), ['Custom.Acme.Audit']),
    );
    await waitFor(() => expect(result.current.check.fieldErrors.name).toBe('You already have a Schema with the same name'));
    expect(result.current.errorCount).toBe(0);
  });
});
