// One list screen for the global items of the detections store, by kind: `/build/helpers/` (global helpers)
// and `/build/data-models/` (data models). The kind gives the title, the words, the page that creates one and
// the table its rows render in; the list is the detections list of that one type.
import { useQuery } from '@apollo/client/react';
import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { DATA_MODEL_ROUTES, HELPER_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { DataModelsTable } from '../../features/data-models/DataModelsTable';
import { HelpersTable } from '../../features/helpers/HelpersTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { DetectionType, GlobalItemsListQuery } from '../../lib/graphql/types';
import { Can } from '../../lib/permissions';
import { GLOBAL_ITEMS_LIST_QUERY } from './globalItems.operations';

export type GlobalItemRow = GlobalItemsListQuery['detectionList']['detections'][number];

interface GlobalItemKind {
  readonly type: DetectionType;
  readonly title: string;
  readonly description: string;
  /** Plural, lower case: "helpers", "data models". */
  readonly plural: string;
  readonly newPath: string;
  readonly newLabel: string;
  readonly Table: ComponentType<{ readonly rows: readonly GlobalItemRow[] }>;
}

export const GLOBAL_ITEM_KINDS = {
  helpers: {
    type: 'GLOBAL',
    title: 'Helpers',
    description: 'Global helpers: Python modules your rules and policies import.',
    plural: 'helpers',
    newPath: HELPER_ROUTES.new,
    newLabel: 'New Global Helper',
    Table: HelpersTable,
  },
  dataModels: {
    type: 'DATA_MODEL',
    title: 'Data Models',
    description: "Map each log type's fields to common names, so one rule reads many log types with event.udm().",
    plural: 'data models',
    newPath: DATA_MODEL_ROUTES.new,
    newLabel: 'New Data Model',
    Table: DataModelsTable,
  },
} as const satisfies Record<string, GlobalItemKind>;

/** The list of one kind of global item, with its New button for users who may modify rules. */
export function GlobalItemsPage({ kind }: { readonly kind: keyof typeof GLOBAL_ITEM_KINDS }) {
  const { type, title, description, plural, newPath, newLabel, Table } = GLOBAL_ITEM_KINDS[kind];
  usePageTitle(title);
  const { data, loading, error } = useQuery(GLOBAL_ITEMS_LIST_QUERY, {
    variables: { types: [type] },
    fetchPolicy: 'cache-and-network',
  });
  const rows = data?.detectionList.detections ?? [];
  const singular = title.replace(/s$/, '').toLowerCase();
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        </div>
        <Can permissions={['RuleModify']}>
          <Button component={Link} to={newPath}>
            {newLabel}
          </Button>
        </Can>
      </Group>
      {loading && !data && <Skeleton h={240} radius="md" aria-label={`Loading ${plural}`} />}
      {error && !data && <LoadFailure title={`Couldn't load your ${plural}`} message={describeApiError(error)} />}
      {data && rows.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults
            title={kind === 'helpers' ? 'No global helpers yet' : `No ${plural} yet`}
            description={`Create a ${kind === 'helpers' ? 'global helper' : singular}, or upload a panther-analysis repository.`}
          />
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <Table rows={rows} />
        </Card>
      )}
    </Stack>
  );
}

/** `/build/helpers/`: the global helpers Python detections import. */
export function HelpersPage() {
  return <GlobalItemsPage kind="helpers" />;
}

/** `/build/data-models/`: the data models that map each log type's fields to UDM names (event.udm). */
export function DataModelsPage() {
  return <GlobalItemsPage kind="dataModels" />;
}
