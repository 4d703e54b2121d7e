import { Avatar, Tooltip } from '@mantine/core';
import { DESTINATION_TYPE_INFO, isDestinationType, type DestinationType } from '../../../../core/destinations';

/** Each service's mark: its initials on its brand colour (no third-party logos are shipped). */
const MARKS: Readonly<Record<DestinationType, { readonly text: string; readonly color: string }>> = {
  asana: { text: 'As', color: '#f06a6a' },
  sns: { text: 'SNS', color: '#e7157b' },
  sqs: { text: 'SQS', color: '#e7157b' },
  blinkops: { text: 'Bl', color: '#5a4fcf' },
  customwebhook: { text: '{ }', color: '#495057' },
  discord: { text: 'Di', color: '#5865f2' },
  gcppubsub: { text: 'PS', color: '#4285f4' },
  github: { text: 'GH', color: '#24292f' },
  incidentio: { text: 'io', color: '#f25533' },
  jira: { text: 'J', color: '#0052cc' },
  jiradatacenter: { text: 'JD', color: '#0747a6' },
  mindflow: { text: 'Mf', color: '#6c47ff' },
  msteams: { text: 'T', color: '#5059c9' },
  opsgenie: { text: 'Og', color: '#2684ff' },
  pagerduty: { text: 'PD', color: '#06ac38' },
  rapid7: { text: 'R7', color: '#e95f2b' },
  slackbot: { text: 'SB', color: '#4a154b' },
  slack: { text: 'S', color: '#4a154b' },
  splunk: { text: 'Sp', color: '#65a637' },
  tines: { text: 'Ti', color: '#8a5cf6' },
  torq: { text: 'Tq', color: '#1f2937' },
};

/** The type's title, or the type as given when it is not one the app knows. */
export const destinationTypeTitle = (type: string) => (isDestinationType(type) ? DESTINATION_TYPE_INFO[type].title : type);

/** A destination type's mark, named for screen readers (and in a tooltip with `withTooltip`). */
export function DestinationTypeIcon({
  type,
  size = 28,
  withTooltip = false,
  label,
}: {
  readonly type: string;
  readonly size?: number;
  readonly withTooltip?: boolean;
  /** What the mark stands for when it is more than the type (a destination's name). */
  readonly label?: string;
}) {
  const mark = isDestinationType(type) ? MARKS[type] : { text: '?', color: '#868e96' };
  const name = label ?? destinationTypeTitle(type);
  const avatar = (
    <Avatar
      size={size}
      radius="sm"
      variant="filled"
      color={mark.color}
      role="img"
      aria-label={name}
      styles={{ placeholder: { fontSize: mark.text.length > 2 ? size * 0.3 : size * 0.4, fontWeight: 700 } }}
    >
      {mark.text}
    </Avatar>
  );
  return withTooltip ? (
    <Tooltip label={name} withArrow>
      {avatar}
    </Tooltip>
  ) : (
    avatar
  );
}
