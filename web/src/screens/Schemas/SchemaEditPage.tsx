import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Anchor, Skeleton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { schemaPath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { SchemaForm } from '../../features/schemas/SchemaForm';
import { SchemaLoadFailure } from '../../features/schemas/SchemaLoadFailure';
import type { SchemaFormValues } from '../../features/schemas/useSchemaCheck';
import { describeApiError, describingFailure } from '../../lib/apollo/apiErrors';
import type { SchemaFieldsFragment } from '../../lib/graphql/types';
import { CREATE_SCHEMA_MUTATION, GET_SCHEMA_QUERY, SCHEMA_NAMES_QUERY, UPDATE_SCHEMA_MUTATION } from './schemas.operations';
import { useSchemaTester } from './useSchemaTester';

/** `/configure/schemas/new/` and `/configure/schemas/{name}/edit/`. */
export function SchemaEditPage() {
  const { name } = useParams();
  const isNew = name === undefined;
  usePageTitle(isNew ? 'New Schema' : 'Edit Schema');
  const existing = useQuery(GET_SCHEMA_QUERY, {
    variables: { input: { name: name ?? '' } },
    skip: isNew,
    fetchPolicy: 'network-only',
  });
  const schema = existing.data?.getSchema.schema;

  if (!isNew && !existing.data)
    return existing.error ? (
      <SchemaLoadFailure message={describeApiError(existing.error)} />
    ) : (
      <Skeleton h={400} radius="md" aria-label="Loading schema" />
    );
  if (!isNew && !schema) return <SchemaLoadFailure message={existing.data?.getSchema.error?.message} />;
  if (schema?.isManaged)
    return (
      <Alert color="yellow" variant="light" title="Managed schemas are read-only">
        {schema.name} ships with Caracal and cannot be edited.{' '}
        <Anchor component={Link} to={schemaPath(schema.name)}>
          Back to the schema
        </Anchor>
      </Alert>
    );
  return <SchemaEditor key={schema ? `${schema.name}@${schema.revision}` : 'new'} schema={schema ?? null} />;
}

/** The form wired to the API: the names taken, saving a revision, testing and inferring. */
function SchemaEditor({ schema }: { readonly schema: SchemaFieldsFragment | null }) {
  const navigate = useNavigate();
  const names = useQuery(SCHEMA_NAMES_QUERY, { skip: schema !== null, fetchPolicy: 'network-only' });
  const existingNames = useMemo(() => names.data?.schemas.edges.map((e) => e.node.name) ?? [], [names.data]);
  const [createSchema] = useMutation(CREATE_SCHEMA_MUTATION);
  const [updateSchema] = useMutation(UPDATE_SCHEMA_MUTATION);
  const tester = useSchemaTester();

  const save = async (values: SchemaFormValues) => {
    const common = {
      description: values.description || null,
      referenceURL: values.referenceURL || null,
      spec: values.spec,
      isFieldDiscoveryEnabled: values.isFieldDiscoveryEnabled,
    };
    const result = schema
      ? (
          await describingFailure(
            updateSchema({ variables: { input: { name: schema.name, revision: schema.revision, ...common } } }),
          )
        ).data!.updateSchema
      : (await describingFailure(createSchema({ variables: { input: { name: values.name.trim(), ...common } } }))).data!
          .createSchema;
    notifications.show({ color: 'green', message: `Schema ${result.name} saved (revision ${result.revision})` });
    navigate(schemaPath(result.name));
  };

  return <SchemaForm schema={schema} existingNames={existingNames} onSave={save} {...tester} />;
}
