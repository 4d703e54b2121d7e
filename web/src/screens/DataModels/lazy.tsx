// The data model screens for AppRoutes. The details and editor pages carry Monaco, so they load on first
// visit rather than with the app.
import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';

const Details = lazy(() => import('./DataModelPage').then((m) => ({ default: m.DataModelPage })));
const Edit = lazy(() => import('./DataModelEditPage').then((m) => ({ default: m.DataModelEditPage })));

const loading = <Skeleton h={400} radius="md" aria-label="Loading" />;

export function DataModelRoute() {
  return (
    <Suspense fallback={loading}>
      <Details />
    </Suspense>
  );
}

export function DataModelEditRoute() {
  return (
    <Suspense fallback={loading}>
      <Edit />
    </Suspense>
  );
}
