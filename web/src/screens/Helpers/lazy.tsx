// The helper screens for AppRoutes. The editor page carries Monaco, so it loads on first visit rather than
// with the app.
import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';

const Edit = lazy(() => import('./HelperEditPage').then((m) => ({ default: m.HelperEditPage })));

export function HelperEditRoute() {
  return (
    <Suspense fallback={<Skeleton h={400} radius="md" aria-label="Loading" />}>
      <Edit />
    </Suspense>
  );
}
