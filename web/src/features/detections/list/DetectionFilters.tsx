import { ActionIcon, Button, Group, Select, TextInput, Tooltip } from '@mantine/core';
import { FilterMultiSelect } from '../../../components/FilterMultiSelect';
import { ChevronDownIcon, SearchIcon } from '../../../components/icons';
import {
  hasFilters,
  FILTER_TYPES,
  SEVERITIES_IN_ORDER,
  TYPE_LABELS,
  type DetectionListParams,
  type ListSort,
} from './listParams';

interface DetectionFiltersProps {
  readonly params: DetectionListParams;
  readonly onChange: (change: Partial<DetectionListParams>) => void;
  /** The log types and tags the readable detections use. */
  readonly logTypes: readonly string[];
  readonly tags: readonly string[];
}

const flagValue = (value: boolean | null) => (value === null ? null : String(value));
const flagOf = (value: string | null) => (value === null ? null : value === 'true');
const upperOrNull = (value: string) => (value.trim() ? value.trim().toUpperCase() : null);

/** The list's filters and sort: search, type, severity, enabled, managed or custom, log type, tag, MITRE. */
export function DetectionFilters({ params, onChange, logTypes, tags }: DetectionFiltersProps) {
  return (
    <Group gap="sm" align="flex-end">
      <TextInput
        label="Search"
        aria-label="Search detections"
        placeholder="Name or id"
        leftSection={<SearchIcon size={16} />}
        value={params.search}
        onChange={(e) => onChange({ search: e.currentTarget.value })}
        w={240}
      />
      <FilterMultiSelect
        label="Type"
        allLabel="All types"
        options={FILTER_TYPES}
        optionLabel={(t) => TYPE_LABELS[t]}
        value={params.types}
        onChange={(types) => onChange({ types })}
      />
      <FilterMultiSelect
        label="Severity"
        allLabel="All severities"
        options={SEVERITIES_IN_ORDER}
        value={params.severities}
        onChange={(severities) => onChange({ severities })}
      />
      <Select
        label="Enabled"
        placeholder="Any"
        data={[
          { value: 'true', label: 'Enabled' },
          { value: 'false', label: 'Disabled' },
        ]}
        value={flagValue(params.enabled)}
        onChange={(value) => onChange({ enabled: flagOf(value) })}
        clearable
        w={120}
      />
      <Select
        label="Source"
        placeholder="Managed & custom"
        data={[
          { value: 'true', label: 'Managed' },
          { value: 'false', label: 'Custom' },
        ]}
        value={flagValue(params.managed)}
        onChange={(value) => onChange({ managed: flagOf(value) })}
        clearable
        w={170}
      />
      <Select
        label="Log type"
        placeholder="Any log type"
        data={[...logTypes]}
        value={params.logType}
        onChange={(value) => onChange({ logType: value })}
        searchable
        clearable
        w={210}
      />
      <Select
        label="Tag"
        placeholder="Any tag"
        data={[...new Set(tags)]}
        value={params.tag}
        onChange={(value) => onChange({ tag: value })}
        searchable
        clearable
        w={170}
      />
      <TextInput
        label="MITRE tactic"
        placeholder="TA0001"
        value={params.mitreTactic ?? ''}
        onChange={(e) => onChange({ mitreTactic: upperOrNull(e.currentTarget.value) })}
        w={120}
      />
      <TextInput
        label="MITRE technique"
        placeholder="T1078"
        value={params.mitreTechnique ?? ''}
        onChange={(e) => onChange({ mitreTechnique: upperOrNull(e.currentTarget.value) })}
        w={140}
      />
      <Group gap={4} align="flex-end" wrap="nowrap">
        <Select
          label="Sort by"
          allowDeselect={false}
          data={[
            { value: 'last-modified', label: 'Last modified' },
            { value: 'name', label: 'Name' },
            { value: 'severity', label: 'Severity' },
          ]}
          value={params.sortBy}
          onChange={(value) => value && onChange({ sortBy: value as ListSort })}
          w={150}
        />
        <Tooltip label={params.sortDir === 'descending' ? 'Descending' : 'Ascending'}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={`Sort ${params.sortDir === 'descending' ? 'ascending' : 'descending'}`}
            onClick={() => onChange({ sortDir: params.sortDir === 'descending' ? 'ascending' : 'descending' })}
          >
            <span style={{ display: 'inline-flex', transform: params.sortDir === 'ascending' ? 'rotate(180deg)' : undefined }}>
              <ChevronDownIcon size={16} />
            </span>
          </ActionIcon>
        </Tooltip>
      </Group>
      {hasFilters(params) && (
        <Button
          variant="subtle"
          onClick={() =>
            onChange({
              types: [],
              severities: [],
              enabled: null,
              managed: null,
              logType: null,
              tag: null,
              mitreTactic: null,
              mitreTechnique: null,
              search: '',
            })
          }
        >
          Clear filters
        </Button>
      )}
    </Group>
  );
}
