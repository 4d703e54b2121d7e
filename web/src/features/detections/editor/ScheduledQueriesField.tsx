import { Anchor, Badge, Code, Group, MultiSelect, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { ScheduledQueryOption } from './DetectionForm';

const scheduleText = (schedule: ScheduledQueryOption['schedule']) => {
  if (!schedule) return 'no schedule';
  const when = schedule.cronExpression ? `cron ${schedule.cronExpression} (UTC)` : `every ${schedule.rateMinutes} minutes`;
  return `${when}, timeout ${schedule.timeoutMinutes ?? '?'} min`;
};

/**
 * A scheduled rule's scheduled queries: chosen from those that exist (a name that no longer exists stays shown,
 * and the server refuses it on save), each shown with its language, schedule and query, linked to its page.
 */
export function ScheduledQueriesField({
  value,
  options,
  readOnly,
  error,
  onChange,
  onBlur,
  href,
  newHref,
}: {
  readonly value: string[];
  readonly options: readonly ScheduledQueryOption[] | null;
  readonly readOnly: boolean;
  readonly error?: string;
  readonly onChange: (value: string[]) => void;
  readonly onBlur: () => void;
  readonly href?: (id: string) => string;
  readonly newHref?: string;
}) {
  const byId = new Map((options ?? []).map((o) => [o.id, o]));
  return (
    <Stack gap="xs">
      <MultiSelect
        label="Scheduled Queries"
        description="The rule runs on every row these queries return, each time they run"
        required
        searchable
        data={[...new Set([...(options ?? []).map((o) => o.id), ...value])]}
        value={value}
        readOnly={readOnly}
        error={error}
        nothingFoundMessage={options ? 'No scheduled query by that name' : 'Loading the scheduled queries…'}
        onChange={onChange}
        onBlur={onBlur}
      />
      {!readOnly && newHref && (
        <Anchor component={Link} to={newHref} size="xs" style={{ alignSelf: 'flex-start' }}>
          New scheduled query
        </Anchor>
      )}
      {value.map((id) => {
        const query = byId.get(id);
        return (
          <Paper key={id} withBorder p="xs" role="region" aria-label={`Scheduled query ${id}`}>
            <Stack gap={4}>
              <Group gap="xs">
                {href ? (
                  <Anchor component={Link} to={href(id)} size="sm" fw={600}>
                    {id}
                  </Anchor>
                ) : (
                  <Text size="sm" fw={600}>
                    {id}
                  </Text>
                )}
                {query ? (
                  <>
                    <Badge size="xs" variant="light">
                      {query.queryLanguage === 'PANTHERFLOW' ? 'PantherFlow' : 'SQL'}
                    </Badge>
                    {!query.enabled && (
                      <Badge size="xs" color="gray">
                        Disabled
                      </Badge>
                    )}
                    <Text size="xs" c="dimmed">
                      {scheduleText(query.schedule)}
                    </Text>
                  </>
                ) : (
                  options && (
                    <Text size="xs" c="red">
                      No scheduled query named {id}
                    </Text>
                  )
                )}
              </Group>
              {query?.query && (
                <Code block style={{ maxHeight: 160, overflow: 'auto' }}>
                  {query.query}
                </Code>
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
