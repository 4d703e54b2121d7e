import { Alert, Button, Checkbox, Code, Drawer, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMemo, useRef, useState, type MutableRefObject } from 'react';
import {
  appendTest,
  compileExpressions,
  conditionsOf,
  emptyGroup,
  readDetectionText,
  writeExpressions,
  writeDetectionText,
  type Group as ConditionGroup,
} from '../../../../../core/detections/simple';
// The builder's modules one by one, not the folder's index: that also holds the YAML editor, and this drawer is
// on the alert page, so importing the index would put Monaco in the first page load.
import { conditionProblem, ConditionBuilder, fieldTypes } from '../simple/ConditionBuilder';
import { FILTERS_LOAD_ERROR } from '../simple/fields';
import { useProvidedFilterFields } from '../simple/fieldsSource';
import { UnsafeTypesToggle } from '../simple/UnsafeTypesToggle';
import { useInlineFilterServices, type FilterDetection } from './services';

export const FILTERS_SAVED = (name: string) => `Filters on ${name} have been successfully saved to your detection.`;
export const FILTERS_SAVE_FAILED =
  'There were errors trying to save the rule with additional filter(s). Changes have not been saved to your detection.';
export const NO_EVENTS = 'No Events found';
export const SERVICES_MISSING = 'Filters cannot be edited here.';

export interface AddFilterDrawerProps {
  readonly detectionId: string;
  readonly opened: boolean;
  readonly onClose: () => void;
  /** The alert whose events the filters are tried on (and may become a test). */
  readonly alertId?: string;
}

/** The test an alert's event becomes: the rule must not match it once filtered. */
export const alertTestName = (at: Date) => `Alert Test - ${at.toISOString()}`;

/**
 * The 'Add Filter' sidesheet: inline filters of a rule built with the condition builder, tried on the alert's
 * events (how many the filters would drop), optionally with the alert's event added as a test expected not to
 * match, saved as a new version of the detection. Closing with unsaved changes asks first.
 */
export function AddFilterDrawer({ detectionId, opened, onClose, alertId }: AddFilterDrawerProps) {
  const services = useInlineFilterServices();
  // The sheet's close button and Escape ask first when the form holds unsaved changes.
  const requestClose = useRef<() => void>(onClose);
  return (
    <Drawer
      opened={opened}
      onClose={() => requestClose.current()}
      position="right"
      size="xl"
      title={<Text fw={600}>Add Filter</Text>}
    >
      {!services ? (
        <Alert color="red" role="alert">
          {SERVICES_MISSING}
        </Alert>
      ) : (
        opened && (
          <FilterSheet
            detectionId={detectionId}
            alertId={alertId}
            onClose={onClose}
            requestClose={requestClose}
            services={services}
          />
        )
      )}
    </Drawer>
  );
}

function FilterSheet({
  detectionId,
  alertId,
  onClose,
  requestClose,
  services,
}: {
  detectionId: string;
  alertId: string | undefined;
  onClose: () => void;
  requestClose: MutableRefObject<() => void>;
  services: NonNullable<ReturnType<typeof useInlineFilterServices>>;
}) {
  const source = services.useSource(detectionId, alertId, false);
  requestClose.current = onClose;
  if (source.loading) return <Loader aria-label="Loading the detection" />;
  if (source.error || !source.detection)
    return (
      <Alert color="red" role="alert" title="The detection could not be loaded">
        {source.error ?? 'The detection could not be found'}
      </Alert>
    );
  return (
    <FilterForm
      key={source.detection.id}
      detection={source.detection}
      source={source}
      alertId={alertId}
      onClose={onClose}
      requestClose={requestClose}
      save={services.useSave}
    />
  );
}

function FilterForm({
  detection,
  source,
  alertId,
  onClose,
  requestClose,
  save: useSave,
}: {
  detection: FilterDetection;
  source: ReturnType<NonNullable<ReturnType<typeof useInlineFilterServices>>['useSource']>;
  alertId: string | undefined;
  onClose: () => void;
  requestClose: MutableRefObject<() => void>;
  save: NonNullable<ReturnType<typeof useInlineFilterServices>>['useSave'];
}) {
  const save = useSave();
  const initial = useMemo(() => readDetectionText(detection.yaml, 'InlineFilters'), [detection.yaml]);
  const [group, setGroup] = useState<ConditionGroup>(() => (initial.ok ? initial.group : emptyGroup()));
  const [testAt, setTestAt] = useState<Date | null>(null);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; detail: string } | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);
  const [showUnsafeTypes, setShowUnsafeTypes] = useState(false);
  const fields = useProvidedFilterFields(detection.logTypes, showUnsafeTypes);
  const types = useMemo(() => fieldTypes(fields.fields), [fields.fields]);

  const initialExpressions = JSON.stringify(initial.ok ? writeExpressions(initial.group) : null);
  const changed = JSON.stringify(writeExpressions(group)) !== initialExpressions || testAt !== null;
  const invalid = conditionsOf(group).filter((c) => conditionProblem(c, types)).length;
  const editable = initial.ok && detection.isRule && !detection.managed;
  const name = detection.displayName || detection.id;

  const events = source.events;
  const preview = useMemo(() => {
    if (!events || invalid) return null;
    try {
      const keep = compileExpressions(writeExpressions(group), 'InlineFilters');
      return { dropped: events.filter((e) => !keep(e)).length };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, [events, group, invalid]);

  const edit = (next: ConditionGroup) => {
    setGroup(next);
    setOutcome(null);
  };
  const close = () => (changed && outcome?.ok !== true ? setConfirmClose(true) : onClose());
  requestClose.current = close;

  const submit = async () => {
    setSaving(true);
    try {
      let yaml = writeDetectionText(detection.yaml, group, 'InlineFilters');
      if (testAt && events?.length)
        yaml = appendTest(yaml, { Name: alertTestName(testAt), ExpectedResult: false, Log: events[0] });
      await save({ yaml, versionId: detection.versionId });
      setOutcome({ ok: true });
      // The test is part of the detection now: a further save does not add it again.
      setTestAt(null);
    } catch (error) {
      setOutcome({ ok: false, detail: (error as Error).message });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md">
      <Text size="sm">
        Inline filters of <b>{name}</b>: the rule runs only on events that match every filter, so an event a filter does not match
        is dropped before the rule sees it.
      </Text>
      {!detection.isRule && (
        <Alert color="yellow" role="status">
          Inline filters apply to rules and scheduled rules only.
        </Alert>
      )}
      {detection.managed && (
        <Alert color="yellow" role="status">
          This detection is managed and cannot be changed: clone it to add filters.
        </Alert>
      )}
      {!initial.ok && (
        <Alert color="yellow" role="status" title={initial.message}>
          Edit its InlineFilters in the detection&apos;s YAML instead.
        </Alert>
      )}
      {fields.error && (
        <Alert color="red" role="alert" title={FILTERS_LOAD_ERROR}>
          {fields.error}
        </Alert>
      )}
      {editable && <UnsafeTypesToggle checked={showUnsafeTypes} onChange={setShowUnsafeTypes} />}
      <ConditionBuilder label="Inline filters" group={group} onChange={edit} fields={fields.fields} readOnly={!editable} />
      {alertId && (
        <Stack gap="xs" role="region" aria-label="Alert events">
          {source.eventsLoading && <Loader size="xs" aria-label="Loading the alert's events" />}
          {source.eventsError && (
            <Alert color="red" role="alert">
              {source.eventsError}
            </Alert>
          )}
          {events && events.length === 0 && <Text size="sm">{NO_EVENTS}</Text>}
          {events && events.length > 0 && preview && 'dropped' in preview && (
            <Text size="sm" role="status">
              These filters would drop {preview.dropped} of the alert&apos;s {events.length}
              {source.moreEvents ? '+' : ''} event{events.length === 1 ? '' : 's'}.
            </Text>
          )}
          {preview && 'error' in preview && (
            <Text size="sm" c="red">
              {preview.error}
            </Text>
          )}
          {events && events.length > 0 && (
            <>
              <Checkbox
                label="Add the alert's event as a unit test (expected not to match)"
                checked={testAt !== null}
                disabled={!editable}
                onChange={(event) => {
                  setTestAt(event.currentTarget.checked ? new Date() : null);
                  setOutcome(null);
                }}
              />
              {testAt && (
                <Text size="xs" c="dimmed">
                  Adds the test <Code>{alertTestName(testAt)}</Code>.
                </Text>
              )}
            </>
          )}
        </Stack>
      )}
      {outcome?.ok === true && (
        <Alert color="green" role="status">
          {FILTERS_SAVED(name)}
        </Alert>
      )}
      {outcome?.ok === false && (
        <Alert color="red" role="alert" title={FILTERS_SAVE_FAILED}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {outcome.detail}
          </Text>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={close}>
          {outcome?.ok ? 'Close' : 'Cancel'}
        </Button>
        <Button
          onClick={() => void submit()}
          loading={saving}
          disabled={!editable || !changed || invalid > 0 || outcome?.ok === true}
        >
          Save
        </Button>
      </Group>
      <Modal opened={confirmClose} onClose={() => setConfirmClose(false)} title="Discard your changes?" centered>
        <Stack>
          <Text size="sm">The filters you changed have not been saved.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmClose(false)}>
              Back to Edit
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirmClose(false);
                onClose();
              }}
            >
              Discard Changes
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
