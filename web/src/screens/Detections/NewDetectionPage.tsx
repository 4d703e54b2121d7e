// `/build/detections/new/`: the type chooser (Rule, Scheduled Rule, Policy, Simple Detection), then the form.
// Optional query parameters: type, isSimpleDetection, mitreTactic / mitreTechnique (a first Framework Mapping),
// relatedDetectionId with relationOperation=clone (a copy of that detection under a new id).
import { useQuery } from '@apollo/client/react';
import { Card, SimpleGrid, Skeleton, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useMemo } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { CORRELATION_RULE_ROUTES, SCHEDULED_QUERY_ROUTES } from '../../app/routes';
import { mitreMapping } from '../../../../core/detections/mitre';
import { usePageTitle } from '../../app/usePageTitle';
import {
  DETECTION_KINDS,
  emptyValues,
  valuesFromDocument,
  type DetectionFormValues,
  type DetectionKind,
} from '../../features/detections/editor/detectionDocument';
import { DetectionEditor, type EditorDetection } from './DetectionEditorPage';
import { EDITOR_DETECTION_QUERY } from './detectionEditor.operations';

const TYPE_PARAM: Record<string, DetectionKind> = {
  rule: 'rule',
  RULE: 'rule',
  scheduled_rule: 'scheduled_rule',
  SCHEDULED_RULE: 'scheduled_rule',
  policy: 'policy',
  POLICY: 'policy',
  simple: 'simple',
};

/** The kind the query parameters ask for, if any. */
export function kindOfParams(params: URLSearchParams): DetectionKind | undefined {
  if (params.get('isSimpleDetection') === 'true') return 'simple';
  return TYPE_PARAM[params.get('type') ?? ''];
}

/** A clone's values: the original's, under a new id, switched off, managed-ness dropped. */
export function cloneValues(original: DetectionFormValues): DetectionFormValues {
  return {
    ...original,
    id: `${original.id}.Copy`,
    displayName: original.displayName ? `${original.displayName} (copy)` : '',
    enabled: false,
  };
}

export function NewDetectionPage() {
  usePageTitle('New Detection');
  const [params, setParams] = useSearchParams();
  const kind = kindOfParams(params);
  const related = params.get('relatedDetectionId');
  const cloning = related !== null && params.get('relationOperation') === 'clone';
  const original = useQuery<{ detection: EditorDetection | null }>(EDITOR_DETECTION_QUERY, {
    variables: { id: related ?? '' },
    skip: !cloning,
  });

  const initialValues = useMemo(() => {
    if (cloning) {
      const found = original.data?.detection;
      return found ? cloneValues(valuesFromDocument(found.yaml, found.body ?? null)) : null;
    }
    if (!kind) return null;
    const values = emptyValues(kind);
    const tactic = params.get('mitreTactic');
    if (tactic) values.mitre = [mitreMapping(tactic, params.get('mitreTechnique') ?? undefined)];
    return values;
  }, [cloning, original.data, kind, params]);

  if (cloning && !initialValues)
    return original.loading ? (
      <Skeleton h={400} aria-label="Loading detection" />
    ) : (
      <Text>There is no detection {related} to clone, or you may not read it.</Text>
    );

  if (/^correlation_rule$/i.test(params.get('type') ?? '')) return <Navigate to={CORRELATION_RULE_ROUTES.new} replace />;
  if (/^scheduled_query$/i.test(params.get('type') ?? '')) return <Navigate to={SCHEDULED_QUERY_ROUTES.new} replace />;
  if (!initialValues)
    return (
      <Stack gap="md">
        <Title order={2}>New Detection</Title>
        <Text c="dimmed">What kind of detection do you want to write?</Text>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {DETECTION_KINDS.map((k) => (
            <UnstyledButton
              key={k.value}
              aria-label={k.label}
              onClick={() => {
                const next = new URLSearchParams(params);
                if (k.value === 'simple') {
                  next.set('type', 'rule');
                  next.set('isSimpleDetection', 'true');
                } else {
                  next.set('type', k.value);
                  next.delete('isSimpleDetection');
                }
                setParams(next);
              }}
            >
              <Card withBorder padding="lg" h="100%">
                <Text fw={600}>{k.label}</Text>
                <Text size="sm" c="dimmed">
                  {k.description}
                </Text>
              </Card>
            </UnstyledButton>
          ))}
          <UnstyledButton component={Link} to={CORRELATION_RULE_ROUTES.new} aria-label="Correlation Rule">
            <Card withBorder padding="lg" h="100%">
              <Text fw={600}>Correlation Rule</Text>
              <Text size="sm" c="dimmed">
                Sequences and groups of other rules&apos; signals, in the correlation-rule editor
              </Text>
            </Card>
          </UnstyledButton>
          <UnstyledButton component={Link} to={SCHEDULED_QUERY_ROUTES.new} aria-label="Scheduled Query">
            <Card withBorder padding="lg" h="100%">
              <Text fw={600}>Scheduled Query</Text>
              <Text size="sm" c="dimmed">
                SQL or PantherFlow run on a schedule; scheduled rules run on its rows
              </Text>
            </Card>
          </UnstyledButton>
        </SimpleGrid>
      </Stack>
    );

  const label = DETECTION_KINDS.find((k) => k.value === initialValues.kind)?.label ?? 'Detection';
  return (
    <Stack gap="md">
      <Title order={2}>{cloning ? `New ${label} (copy of ${related})` : `New ${label}`}</Title>
      <DetectionEditor key={`${initialValues.kind}:${related ?? ''}`} initialValues={initialValues} existing={null} />
    </Stack>
  );
}
