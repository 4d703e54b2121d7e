// The detection editor's screens for AppRoutes: they carry Monaco, so each loads on its first visit rather than
// with the app.
import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';

const New = lazy(() => import('./NewDetectionPage').then((m) => ({ default: m.NewDetectionPage })));
const Edit = lazy(() => import('./DetectionEditorPage').then((m) => ({ default: m.DetectionEditorPage })));
const Correlation = lazy(() => import('./CorrelationRulePage').then((m) => ({ default: m.CorrelationRulePage })));
const NewCorrelation = lazy(() => import('./CorrelationRulePage').then((m) => ({ default: m.NewCorrelationRulePage })));
const ScheduledQuery = lazy(() => import('./ScheduledQueryPage').then((m) => ({ default: m.ScheduledQueryPage })));
const NewScheduledQuery = lazy(() => import('./ScheduledQueryPage').then((m) => ({ default: m.NewScheduledQueryPage })));
const Details = lazy(() => import('./DetectionPage').then((m) => ({ default: m.DetectionPage })));

const loading = <Skeleton h={400} radius="md" aria-label="Loading" />;

export function NewDetectionRoute() {
  return (
    <Suspense fallback={loading}>
      <New />
    </Suspense>
  );
}

export function DetectionEditorRoute() {
  return (
    <Suspense fallback={loading}>
      <Edit />
    </Suspense>
  );
}

export function DetectionRoute() {
  return (
    <Suspense fallback={loading}>
      <Details />
    </Suspense>
  );
}

/** The correlation-rule editor: read-only at `{id}/`, editing at `{id}/edit/`. */
export function CorrelationRuleRoute({ edit }: { readonly edit: boolean }) {
  return (
    <Suspense fallback={loading}>
      <Correlation edit={edit} />
    </Suspense>
  );
}

export function NewCorrelationRuleRoute() {
  return (
    <Suspense fallback={loading}>
      <NewCorrelation />
    </Suspense>
  );
}

/** A scheduled query: read-only at `{id}/`, editing at `{id}/edit/`. */
export function ScheduledQueryRoute({ edit }: { readonly edit: boolean }) {
  return (
    <Suspense fallback={loading}>
      <ScheduledQuery edit={edit} />
    </Suspense>
  );
}

export function NewScheduledQueryRoute() {
  return (
    <Suspense fallback={loading}>
      <NewScheduledQuery />
    </Suspense>
  );
}
