import { Button, Group, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  ALERT_LIST_SORTS,
  CUSTOM_RANGE,
  DATE_PRESETS,
  isFiltered,
  type AlertListSort,
  type AlertListView,
  type DatePreset,
} from '../../../../core/alerts/filters';
import { FilterMultiSelect } from '../../components/FilterMultiSelect';
import type { AlertStatus, AlertType } from '../../lib/graphql/types';
import { SEVERITY_ORDER } from './AlertBadges';

const TYPES: readonly AlertType[] = ['ALERT', 'DETECTION_ERROR', 'SYSTEM_ERROR'];
const STATUSES: readonly AlertStatus[] = ['OPEN', 'TRIAGED', 'RESOLVED', 'CLOSED'];
const TYPE_TAB_LABELS: Record<AlertType, string> = {
  ALERT: 'Alerts',
  DETECTION_ERROR: 'Detection errors',
  SYSTEM_ERROR: 'System errors',
};

/** A text filter applied on Enter or when the field is left (not on every key). */
function TextFilter({
  label: text,
  value,
  placeholder,
  width,
  onChange,
}: {
  readonly label: string;
  readonly value: string | null;
  readonly placeholder?: string;
  readonly width: number;
  readonly onChange: (value: string | null) => void;
}) {
  const [draft, setDraft] = useState(value ?? '');
  useEffect(() => setDraft(value ?? ''), [value]);
  const commit = () => {
    const next = draft.trim() || null;
    if (next !== value) onChange(next);
  };
  return (
    <TextInput
      label={text}
      placeholder={placeholder}
      value={draft}
      w={width}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
    />
  );
}

/** A time as the datetime-local field shows it (UTC), and back. */
const toLocalField = (iso: string | null) => (iso ? iso.slice(0, 16) : '');
const fromLocalField = (text: string) => (text ? new Date(`${text}:00Z`).toISOString() : null);

export interface AlertFiltersProps {
  readonly view: AlertListView;
  readonly onChange: (view: AlertListView) => void;
  /** The people an assignee can be: "Me" and "Unassigned" come first. */
  readonly assignees: readonly { readonly id: string; readonly name: string }[];
}

/**
 * The list's filter bar: type tabs (all, alerts, detection errors, system errors), severity, status, assignee
 * (Me, Unassigned or a person), detection, log type, source, created time (the specification's presets or a
 * custom range), title search and the sort.
 */
export function AlertFilters({ view, onChange, assignees }: AlertFiltersProps) {
  const set = (patch: Partial<AlertListView>) => onChange({ ...view, ...patch });
  return (
    <>
      <SegmentedControl
        aria-label="Type"
        value={view.type ?? 'ALL'}
        data={[{ value: 'ALL', label: 'All' }, ...TYPES.map((t) => ({ value: t, label: TYPE_TAB_LABELS[t] }))]}
        onChange={(value) => set({ type: value === 'ALL' ? null : (value as AlertType) })}
        style={{ alignSelf: 'flex-start' }}
      />
      <Group align="flex-end" gap="sm">
        <TextFilter
          label="Title"
          placeholder="Search titles"
          value={view.title}
          width={220}
          onChange={(title) => set({ title })}
        />
        <FilterMultiSelect
          label="Severity"
          allLabel="All severities"
          options={SEVERITY_ORDER}
          value={view.severities}
          onChange={(severities) => set({ severities })}
        />
        <FilterMultiSelect
          label="Status"
          allLabel="All statuses"
          options={STATUSES}
          value={view.statuses}
          onChange={(statuses) => set({ statuses })}
        />
        <Select
          label="Assignee"
          placeholder="Anyone"
          data={[
            { value: 'me', label: 'Me' },
            { value: 'unassigned', label: 'Unassigned' },
            ...assignees.map((a) => ({ value: a.id, label: a.name })),
          ]}
          value={view.assignee}
          clearable
          searchable
          w={200}
          onChange={(assignee) => set({ assignee })}
        />
        <Select
          label="Created"
          placeholder="Any time"
          data={[
            ...DATE_PRESETS.map((p) => ({ value: p.value, label: p.label })),
            { value: CUSTOM_RANGE, label: 'Custom range' },
          ]}
          value={view.created}
          clearable
          w={180}
          onChange={(created) => set({ created: created as DatePreset | 'custom' | null })}
        />
        {view.created === CUSTOM_RANGE && (
          <>
            <TextInput
              label="From (UTC)"
              type="datetime-local"
              value={toLocalField(view.from)}
              w={210}
              onChange={(e) => set({ from: fromLocalField(e.currentTarget.value) })}
            />
            <TextInput
              label="To (UTC)"
              type="datetime-local"
              value={toLocalField(view.to)}
              w={210}
              onChange={(e) => set({ to: fromLocalField(e.currentTarget.value) })}
            />
          </>
        )}
        <TextFilter
          label="Detection"
          placeholder="Detection id"
          value={view.detectionId}
          width={200}
          onChange={(detectionId) => set({ detectionId })}
        />
        <TextFilter
          label="Log type"
          placeholder="e.g. AWS.CloudTrail"
          value={view.logType}
          width={180}
          onChange={(logType) => set({ logType })}
        />
        <TextFilter
          label="Source"
          placeholder="Log source id"
          value={view.sourceId}
          width={180}
          onChange={(sourceId) => set({ sourceId })}
        />
        <Select
          label="Sort by"
          data={ALERT_LIST_SORTS.map((s) => ({ value: s.value, label: s.label }))}
          value={view.sort}
          allowDeselect={false}
          w={150}
          onChange={(sort) => set({ sort: (sort ?? 'createdAt') as AlertListSort })}
        />
        <Select
          label="Order"
          aria-label="Order"
          data={[
            { value: 'desc', label: view.sort === 'severity' ? 'Most severe first' : 'Newest first' },
            { value: 'asc', label: view.sort === 'severity' ? 'Least severe first' : 'Oldest first' },
          ]}
          value={view.ascending ? 'asc' : 'desc'}
          allowDeselect={false}
          w={170}
          onChange={(dir) => set({ ascending: dir === 'asc' })}
        />
        {isFiltered(view) && (
          <Button
            variant="subtle"
            onClick={() =>
              onChange({
                ...view,
                type: null,
                severities: [],
                statuses: [],
                assignee: null,
                detectionId: null,
                logType: null,
                sourceId: null,
                created: null,
                from: null,
                to: null,
                title: null,
              })
            }
          >
            Clear filters
          </Button>
        )}
      </Group>
    </>
  );
}
