// The global items' editor screens for AppRoutes (a helper's editor, a data model's page and editor). They
// carry Monaco, so each loads on its first visit rather than with the app.
import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';

const HelperEdit = lazy(() => import('./HelperEditPage').then((m) => ({ default: m.HelperEditPage })));
const DataModelDetails = lazy(() => import('./DataModelPage').then((m) => ({ default: m.DataModelPage })));
const DataModelEdit = lazy(() => import('./DataModelEditPage').then((m) => ({ default: m.DataModelEditPage })));

const loading = <Skeleton h={400} radius="md" aria-label="Loading" />;

export function HelperEditRoute() {
  return (
    <Suspense fallback={loading}>
      <HelperEdit />
    </Suspense>
  );
}

export function DataModelRoute() {
  return (
    <Suspense fallback={loading}>
      <DataModelDetails />
    </Suspense>
  );
}

export function DataModelEditRoute() {
  return (
    <Suspense fallback={loading}>
      <DataModelEdit />
    </Suspense>
  );
}
