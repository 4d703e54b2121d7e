// The schema screens for AppRoutes. The details and editor pages carry Monaco, so they load on first visit
// rather than with the app.
import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';

const Details = lazy(() => import('./SchemaDetailsPage').then((m) => ({ default: m.SchemaDetailsPage })));
const Edit = lazy(() => import('./SchemaEditPage').then((m) => ({ default: m.SchemaEditPage })));

const loading = <Skeleton h={400} radius="md" aria-label="Loading" />;

export function SchemaDetailsRoute() {
  return (
    <Suspense fallback={loading}>
      <Details />
    </Suspense>
  );
}

export function SchemaEditRoute() {
  return (
    <Suspense fallback={loading}>
      <Edit />
    </Suspense>
  );
}
