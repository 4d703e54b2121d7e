import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Code,
  CopyButton,
  Drawer,
  Group,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { Link } from 'react-router-dom';
import { SearchIcon } from '../../components/icons';
import { cellText, indicatorValues } from './searchState';

interface EventDrawerProps {
  readonly event: Readonly<Record<string, unknown>> | null;
  readonly onClose: () => void;
  /** Narrows the search to events whose `field` equals `value`. */
  readonly onSearchValue: (field: string, value: string) => void;
  /** The indicator search of a value. */
  readonly indicatorPath: (value: string) => string;
}

/** One event: its JSON (copyable), each field with "search for this value", and its indicators to pivot on. Text only. */
export function EventDrawer({ event, onClose, onSearchValue, indicatorPath }: EventDrawerProps) {
  const json = event ? JSON.stringify(event, null, 2) : '';
  const indicators = event ? indicatorValues(event) : [];
  return (
    <Drawer
      opened={event !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Title order={2} size="h4">
          Event
        </Title>
      }
    >
      {event && (
        <Stack gap="md">
          {indicators.length > 0 && (
            <div>
              <Text fw={600} size="sm" mb={4}>
                Indicators
              </Text>
              <Group gap={6}>
                {indicators.map((i) => (
                  <Anchor key={`${i.column}:${i.value}`} component={Link} to={indicatorPath(i.value)} size="sm">
                    <Badge variant="light" style={{ cursor: 'pointer', textTransform: 'none' }} title={`Pivot: ${i.column}`}>
                      {i.value}
                    </Badge>
                  </Anchor>
                ))}
              </Group>
            </div>
          )}
          <Table striped withTableBorder fz="sm" aria-label="Event fields">
            <Table.Tbody>
              {Object.entries(event).map(([field, value]) => {
                const text = cellText(value);
                return (
                  <Table.Tr key={field}>
                    <Table.Td fw={500} style={{ whiteSpace: 'nowrap' }}>
                      {field}
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{text.slice(0, 1000)}</Table.Td>
                    <Table.Td w={40}>
                      {value !== null && typeof value !== 'object' && (
                        <Tooltip label="Search for this value">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Search for ${field} = ${text.slice(0, 60)}`}
                            onClick={() => onSearchValue(field, text)}
                          >
                            <SearchIcon size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Text fw={600} size="sm">
              JSON
            </Text>
            <CopyButton value={json}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy JSON'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <ScrollArea.Autosize mah={400}>
            <Code block data-testid="event-json">
              {json}
            </Code>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </Drawer>
  );
}
