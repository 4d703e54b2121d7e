// The destination vocabulary: the 21 destination types of the specification, the configuration fields of each
// (which are secret), and the shape of a destination as the API, delivery and the web app see it.
// Secrets never leave the server in clear: the API answers MASKED_SECRET for a secret that is set, and an
// update that sends MASKED_SECRET back keeps the stored value (functions/lib/destinations/).
import { ALERT_TYPES, type AlertSeverity, type AlertType } from '../alerts/model';
import type { FeatureFlagName } from '../feature-flags';

export { MASKED_SECRET } from '../log-sources/types';

/** Every destination type's outputType id, in the specification's order. */
export const DESTINATION_TYPES = [
  'asana',
  'sns',
  'sqs',
  'blinkops',
  'customwebhook',
  'discord',
  'gcppubsub',
  'github',
  'incidentio',
  'jira',
  'jiradatacenter',
  'mindflow',
  'msteams',
  'opsgenie',
  'pagerduty',
  'rapid7',
  'slackbot',
  'slack',
  'splunk',
  'tines',
  'torq',
] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export const isDestinationType = (value: unknown): value is DestinationType =>
  typeof value === 'string' && (DESTINATION_TYPES as readonly string[]).includes(value);

/** The feature flag that shows the Torq destination type (hidden otherwise, in the chooser and the API). */
export const TORQ_FLAG = 'ENABLE_TORQ_DESTINATION' satisfies FeatureFlagName;

/**
 * How a field is entered and checked:
 * - text: one line of text; url: an https URL (http only to a loopback host, for local testing);
 * - secret: a token or key, shown masked; a secret field may also be a URL (`url: true`) when the URL carries a token;
 * - select: one of `options`; list: several values; boolean: a switch; headers: name/value pairs;
 * - severityConfig: one row per alert severity, Critical to Info (SeverityConfigRow).
 */
export const FIELD_KINDS = ['text', 'url', 'secret', 'select', 'list', 'boolean', 'headers', 'severityConfig'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** A field's format beyond its kind, checked by core/destinations/validation.ts. */
export type FieldFormat =
  | 'webhookUrl'
  | 'siteUrl'
  | 'hex32'
  | 'snsTopicArn'
  | 'sqsQueueUrl'
  | 'gcpProjectId'
  | 'gcpTopicId'
  | 'gcpCredentials'
  | 'githubRepo'
  | 'jiraProjectKey'
  | 'domain'
  | 'digits'
  | 'email'
  | 'slackChannel'
  | 'timeZone';

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export interface DestinationField {
  /** The key in the destination's config (what delivery reads). */
  readonly name: string;
  readonly label: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  /** Encrypted at rest, never answered by the API (MASKED_SECRET instead). */
  readonly secret: boolean;
  readonly format?: FieldFormat;
  readonly options?: readonly SelectOption[];
  /** A select's or boolean's value when the form starts. */
  readonly defaultValue?: string | boolean;
  readonly description?: string;
  readonly placeholder?: string;
}

export interface DestinationTypeInfo {
  readonly type: DestinationType;
  /** The name users know the service by. */
  readonly title: string;
  /** One line under the title in the type chooser. */
  readonly description: string;
  /** Words the chooser's search also matches. */
  readonly searchTerms: readonly string[];
  readonly fields: readonly DestinationField[];
  /** The public documentation of where to get the values. */
  readonly docUrl: string;
}

const webhookUrl = (description: string): DestinationField => ({
  name: 'webhookURL',
  label: 'Webhook URL',
  kind: 'secret',
  required: true,
  secret: true,
  format: 'webhookUrl',
  description,
  placeholder: 'https://…',
});

const secretField = (name: string, label: string, required: boolean, description?: string): DestinationField => ({
  name,
  label,
  kind: 'secret',
  required,
  secret: true,
  ...(description ? { description } : {}),
});

const switchField = (name: string, label: string, description: string): DestinationField => ({
  name,
  label,
  kind: 'boolean',
  required: false,
  secret: false,
  defaultValue: false,
  description,
});

/** What the settings Caracal keeps but cannot act on yet say (the specification has them; see docs/destinations.md). */
const NOT_YET = 'Not available yet: the setting is kept and has no effect today.';

/** The Jira statuses an alert's statuses move its issue to (statusMap), when status sync is on. */
export const JIRA_STATUS_MAP_FIELDS = [
  { name: 'statusMapOpen', status: 'OPEN', label: 'Jira status for Open', defaultValue: 'To Do' },
  { name: 'statusMapTriaged', status: 'TRIAGED', label: 'Jira status for Triaged', defaultValue: 'In Progress' },
  { name: 'statusMapResolved', status: 'RESOLVED', label: 'Jira status for Resolved', defaultValue: 'Done' },
  { name: 'statusMapClosed', status: 'CLOSED', label: 'Jira status for Closed', defaultValue: 'Done' },
] as const;

/** Jira's sync and pull settings (the specification's flags) and the status map. */
const JIRA_SYNC_FIELDS: readonly DestinationField[] = [
  switchField(
    'syncStatus',
    'Sync status to Jira',
    "When the alert's status changes in Caracal, its issue is moved to the Jira status mapped below, through the issue's workflow transitions.",
  ),
  ...JIRA_STATUS_MAP_FIELDS.map((m): DestinationField => ({
    name: m.name,
    label: m.label,
    kind: 'text',
    required: false,
    secret: false,
    defaultValue: m.defaultValue,
    description: `Used when status sync is on; empty: "${m.defaultValue}"`,
  })),
  switchField(
    'syncAssignee',
    'Sync assignee to Jira',
    "When the alert is assigned in Caracal, its issue is assigned to the Jira user found by the assignee's email (no such user: the delivery fails naming the email); unassigning clears the issue's assignee.",
  ),
  switchField(
    'syncComments',
    'Sync comments to Jira',
    "When someone comments on the alert in Caracal, the comment is added to its issue as text, with the author's name.",
  ),
  switchField('pullStatus', 'Pull status from Jira', `${NOT_YET} Caracal does not read changes back from Jira.`),
  switchField('pullAssignee', 'Pull assignee from Jira', `${NOT_YET} Caracal does not read changes back from Jira.`),
  switchField('pullComments', 'Pull comments from Jira', `${NOT_YET} Caracal does not read changes back from Jira.`),
];

const JIRA_FIELDS = (cloud: boolean): readonly DestinationField[] => [
  {
    name: 'orgDomain',
    label: cloud ? 'Organization Domain' : 'Server URL',
    kind: 'url',
    required: true,
    secret: false,
    format: 'siteUrl',
    placeholder: cloud ? 'https://your-org.atlassian.net' : 'https://jira.example.com',
  },
  { name: 'projectKey', label: 'Project Key', kind: 'text', required: true, secret: false, format: 'jiraProjectKey' },
  {
    name: 'userName',
    label: cloud ? 'Email' : 'User Name',
    kind: 'text',
    required: cloud,
    secret: false,
    ...(cloud ? { format: 'email' as const } : {}),
  },
  cloud
    ? secretField('apiKey', 'Jira API Key', true, 'An API token of the user above')
    : secretField('apiKey', 'Personal Access Token', true, 'Sent as a bearer token'),
  { name: 'assigneeId', label: 'Assignee ID', kind: 'text', required: false, secret: false },
  { name: 'issueType', label: 'Issue Type', kind: 'text', required: true, secret: false, defaultValue: 'Task' },
  { name: 'labels', label: 'Labels', kind: 'list', required: false, secret: false },
  {
    name: 'priority',
    label: 'Priority',
    kind: 'select',
    required: false,
    secret: false,
    options: [
      { value: '', label: 'From the alert severity' },
      { value: 'Highest', label: 'Highest' },
      { value: 'High', label: 'High' },
      { value: 'Medium', label: 'Medium' },
      { value: 'Low', label: 'Low' },
      { value: 'Lowest', label: 'Lowest' },
    ],
    defaultValue: '',
  },
  switchField(
    'useSeverityBasedConfig',
    'Use severity-based config',
    "When on, an alert's issue takes the project key, issue type and assignee of its severity's row below; an empty cell uses the field above.",
  ),
  {
    name: 'severityBasedConfig',
    label: 'Severity-based config',
    kind: 'severityConfig',
    required: false,
    secret: false,
    description: 'Used when severity-based config is on: per severity, the project key, issue type and assignee ID.',
  },
  ...JIRA_SYNC_FIELDS,
];

type WebhookTypeInfo = Omit<DestinationTypeInfo, 'type' | 'fields'>;

/**
 * A type of the webhook family: its webhook URL (a secret, as it often carries a token) first, then its own
 * fields; 'webhook' is one of its search terms.
 */
const webhookType = (
  type: DestinationType,
  info: WebhookTypeInfo,
  urlDescription: string,
  extraFields: readonly DestinationField[] = [],
): DestinationTypeInfo => ({
  type,
  ...info,
  searchTerms: info.searchTerms.includes('webhook') ? info.searchTerms : [...info.searchTerms, 'webhook'],
  fields: [webhookUrl(urlDescription), ...extraFields],
});

/** The catalogue, in the specification's order. */
export const DESTINATION_TYPE_INFO: Readonly<Record<DestinationType, DestinationTypeInfo>> = {
  asana: {
    type: 'asana',
    title: 'Asana',
    description: 'Create a task in Asana projects for each alert.',
    searchTerms: ['tasks', 'project management'],
    docUrl: 'https://developers.asana.com/docs/personal-access-token',
    fields: [
      secretField('personalAccessToken', 'Personal Access Token', true),
      {
        name: 'projectGids',
        label: 'Project GIDs',
        kind: 'list',
        required: true,
        secret: false,
        format: 'digits',
        description: 'The numeric ids of the projects the task is added to',
      },
      switchField(
        'syncAlertStatus',
        'Sync alert status',
        'When the alert is resolved or closed in Caracal, its task is marked complete; reopened, incomplete again.',
      ),
    ],
  },
  sns: {
    type: 'sns',
    title: 'AWS SNS',
    description: 'Publish each alert to an Amazon SNS topic.',
    searchTerms: ['amazon', 'simple notification service', 'topic'],
    docUrl: 'https://docs.aws.amazon.com/sns/latest/dg/sns-create-topic.html',
    fields: [
      {
        name: 'topicArn',
        label: 'Topic ARN',
        kind: 'text',
        required: true,
        secret: false,
        format: 'snsTopicArn',
        placeholder: 'arn:aws:sns:us-east-1:123456789012:alerts',
        description: "The topic's policy must allow Caracal's delivery function to publish",
      },
    ],
  },
  sqs: {
    type: 'sqs',
    title: 'AWS SQS',
    description: 'Send each alert to an Amazon SQS queue.',
    searchTerms: ['amazon', 'simple queue service', 'queue'],
    docUrl: 'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/creating-sqs-standard-queues.html',
    fields: [
      {
        name: 'queueUrl',
        label: 'Queue URL',
        kind: 'url',
        required: true,
        secret: false,
        format: 'sqsQueueUrl',
        placeholder: 'https://sqs.us-east-1.amazonaws.com/123456789012/alerts',
        description: "The queue's policy must allow Caracal's delivery function to send",
      },
    ],
  },
  blinkops: webhookType(
    'blinkops',
    {
      title: 'Blink Ops',
      description: 'Trigger a Blink automation with a webhook.',
      searchTerms: ['blink', 'automation', 'soar'],
      docUrl: 'https://www.docs.blinkops.com/docs/Workflows/Triggers/Webhook',
    },
    "The URL of the workflow's webhook trigger",
  ),
  customwebhook: webhookType(
    'customwebhook',
    {
      title: 'Custom Webhook',
      description: 'POST each alert as JSON to any HTTPS endpoint.',
      searchTerms: ['http', 'json', 'generic'],
      docUrl: 'docs/alert-payloads.md',
    },
    'Each alert is sent as a JSON POST to this URL',
    [
      {
        name: 'customHeaders',
        label: 'Custom Headers',
        kind: 'headers',
        required: false,
        secret: true,
        description: 'Sent with every request; kept encrypted as they often carry credentials',
      },
    ],
  ),
  discord: webhookType(
    'discord',
    {
      title: 'Discord',
      description: 'Post each alert to a Discord channel.',
      searchTerms: ['chat', 'channel'],
      docUrl: 'https://support.discord.com/hc/en-us/articles/228383668-Intro-to-Webhooks',
    },
    "The channel's webhook URL",
  ),
  gcppubsub: {
    type: 'gcppubsub',
    title: 'GCP Pub/Sub',
    description: 'Publish each alert to a Google Cloud Pub/Sub topic.',
    searchTerms: ['google', 'cloud', 'pubsub', 'topic'],
    docUrl: 'https://cloud.google.com/pubsub/docs/create-topic',
    fields: [
      { name: 'projectId', label: 'Project ID', kind: 'text', required: true, secret: false, format: 'gcpProjectId' },
      { name: 'topicId', label: 'Topic ID', kind: 'text', required: true, secret: false, format: 'gcpTopicId' },
      {
        name: 'credentialsType',
        label: 'Credentials Type',
        kind: 'select',
        required: false,
        secret: false,
        options: [{ value: 'serviceAccountKey', label: 'Service account key (JSON)' }],
        defaultValue: 'serviceAccountKey',
        description:
          'How Caracal signs in to Google Cloud. Only a service account key is supported today; workload identity federation is not.',
      },
      {
        name: 'credentials',
        label: 'Service Account Key (JSON)',
        kind: 'secret',
        required: true,
        secret: true,
        format: 'gcpCredentials',
        description: 'The JSON key of a service account with the Pub/Sub Publisher role on the topic',
      },
    ],
  },
  github: {
    type: 'github',
    title: 'GitHub',
    description: 'Open a GitHub issue for each alert.',
    searchTerms: ['issues', 'repository', 'git'],
    docUrl: 'https://docs.github.com/en/rest/issues/issues#create-an-issue',
    fields: [
      {
        name: 'repoName',
        label: 'Repository Name',
        kind: 'text',
        required: true,
        secret: false,
        format: 'githubRepo',
        placeholder: 'owner/repository',
      },
      secretField('token', 'Token', true, 'A token allowed to create issues in the repository'),
    ],
  },
  incidentio: webhookType(
    'incidentio',
    {
      title: 'incident.io',
      description: 'Send each alert to an incident.io HTTP alert source.',
      searchTerms: ['incident', 'on-call'],
      docUrl: 'https://docs.incident.io/alerts/http',
    },
    "The alert source's URL",
    [secretField('token', 'Token', true, 'Sent as a bearer token')],
  ),
  jira: {
    type: 'jira',
    title: 'Jira Cloud',
    description: 'Create a Jira Cloud issue for each alert.',
    searchTerms: ['atlassian', 'issues', 'tickets'],
    docUrl: 'https://support.atlassian.com/atlassian-account/docs/manage-api-tokens-for-your-atlassian-account/',
    fields: JIRA_FIELDS(true),
  },
  jiradatacenter: {
    type: 'jiradatacenter',
    title: 'Jira Data Center',
    description: 'Create an issue in a self-hosted Jira Data Center.',
    searchTerms: ['atlassian', 'issues', 'tickets', 'server', 'self-hosted'],
    docUrl: 'https://confluence.atlassian.com/enterprise/using-personal-access-tokens-1026032365.html',
    fields: JIRA_FIELDS(false),
  },
  mindflow: webhookType(
    'mindflow',
    {
      title: 'Mindflow',
      description: 'Trigger a Mindflow automation with a webhook.',
      searchTerms: ['automation', 'soar'],
      docUrl: 'https://docs.mindflow.io/',
    },
    "The URL of the flow's webhook trigger",
  ),
  msteams: webhookType(
    'msteams',
    {
      title: 'Microsoft Teams',
      description: 'Post each alert as a card to a Teams channel.',
      searchTerms: ['microsoft', 'teams', 'chat', 'channel'],
      docUrl: 'https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook',
    },
    "The channel's incoming webhook (or workflow) URL",
  ),
  opsgenie: {
    type: 'opsgenie',
    title: 'Opsgenie',
    description: 'Create an Opsgenie alert for each alert.',
    searchTerms: ['atlassian', 'on-call', 'paging'],
    docUrl: 'https://support.atlassian.com/opsgenie/docs/create-a-default-api-integration/',
    fields: [
      secretField('apiKey', 'API Key', true, 'The key of an API integration'),
      {
        name: 'serviceRegion',
        label: 'Service Region',
        kind: 'select',
        required: true,
        secret: false,
        options: [
          { value: 'US', label: 'US' },
          { value: 'EU', label: 'EU' },
        ],
        defaultValue: 'US',
      },
    ],
  },
  pagerduty: {
    type: 'pagerduty',
    title: 'PagerDuty',
    description: 'Trigger a PagerDuty incident (Events API v2).',
    searchTerms: ['on-call', 'paging', 'incident'],
    docUrl: 'https://support.pagerduty.com/main/docs/services-and-integrations',
    fields: [
      {
        ...secretField('integrationKey', 'Integration Key', true, 'The 32-character key of an Events API v2 integration'),
        format: 'hex32',
      },
    ],
  },
  rapid7: webhookType(
    'rapid7',
    {
      title: 'Rapid7 Insight Connect',
      description: 'Trigger an InsightConnect workflow with a webhook.',
      searchTerms: ['rapid7', 'insightconnect', 'soar'],
      docUrl: 'https://docs.rapid7.com/insightconnect/api-triggers/',
    },
    "The workflow's API trigger URL",
    [secretField('apiKey', 'API Key', false, 'Sent as the X-API-Key header when set')],
  ),
  slackbot: {
    type: 'slackbot',
    title: 'Slack Bot',
    description: 'Post each alert to a channel through a Slack app.',
    searchTerms: ['chat', 'channel', 'bot', 'app'],
    docUrl: 'https://api.slack.com/methods/chat.postMessage',
    fields: [
      secretField('botToken', 'Bot Token', true, 'The bot user OAuth token (xoxb-…) with chat:write'),
      {
        name: 'channel',
        label: 'Channel',
        kind: 'text',
        required: true,
        secret: false,
        format: 'slackChannel',
        placeholder: '#security-alerts or C0123456789',
      },
      {
        name: 'timeLocation',
        label: 'Time Zone',
        kind: 'text',
        required: false,
        secret: false,
        format: 'timeZone',
        placeholder: 'UTC or America/New_York',
        description: 'The time zone the message shows times in (an IANA name); UTC when empty',
      },
      {
        name: 'clientId',
        label: 'Client ID',
        kind: 'text',
        required: false,
        secret: false,
        description: `The Slack app's client ID, for installing it by OAuth and for its buttons. ${NOT_YET} Messages are posted with the bot token alone.`,
      },
      secretField(
        'clientSecret',
        'Client Secret',
        false,
        `The Slack app's client secret, for installing it by OAuth. ${NOT_YET} Messages are posted with the bot token alone.`,
      ),
      secretField(
        'signingSecret',
        'Signing Secret',
        false,
        `Verifies the requests Slack sends to Caracal (button clicks). ${NOT_YET} Caracal takes no requests from Slack.`,
      ),
    ],
  },
  slack: webhookType(
    'slack',
    {
      title: 'Slack',
      description: 'Post each alert to a channel with an incoming webhook.',
      searchTerms: ['chat', 'channel'],
      docUrl: 'https://api.slack.com/messaging/webhooks',
    },
    "The channel's incoming webhook URL",
  ),
  splunk: webhookType(
    'splunk',
    {
      title: 'Splunk',
      description: 'Send each alert to a Splunk HTTP Event Collector.',
      searchTerms: ['hec', 'http event collector', 'siem'],
      docUrl: 'https://docs.splunk.com/Documentation/Splunk/latest/Data/UsetheHTTPEventCollector',
    },
    'The HTTP Event Collector endpoint (…/services/collector/event)',
    [secretField('token', 'HEC Token', true, 'Sent as "Authorization: Splunk <token>"')],
  ),
  tines: webhookType(
    'tines',
    {
      title: 'Tines',
      description: 'Trigger a Tines story with a webhook.',
      searchTerms: ['automation', 'soar', 'story'],
      docUrl: 'https://www.tines.com/docs/actions/types/webhook',
    },
    "The story's webhook action URL",
  ),
  torq: webhookType(
    'torq',
    {
      title: 'Torq',
      description: 'Trigger a Torq workflow with a webhook.',
      searchTerms: ['automation', 'soar', 'workflow'],
      docUrl: 'https://kb.torq.io/en/articles/9145364-webhook-trigger',
    },
    "The workflow's webhook URL",
    [secretField('token', 'Token', false, 'Sent as a bearer token when set')],
  ),
};

/** The types a deployment offers: every type, Torq only when its feature flag is on. */
export function availableDestinationTypes(torqEnabled: boolean): DestinationType[] {
  return DESTINATION_TYPES.filter((type) => type !== 'torq' || torqEnabled);
}

/** The fields of a type that are secret. */
export const secretFieldNames = (type: DestinationType): string[] =>
  DESTINATION_TYPE_INFO[type].fields.filter((field) => field.secret).map((field) => field.name);

/** A custom header of a custom webhook. */
export interface CustomHeader {
  readonly name: string;
  readonly value: string;
}

/** One row of a severity-based config (Jira): what an alert of `severity` opens its issue with; empty: the main field. */
export interface SeverityConfigRow {
  readonly severity: AlertSeverity;
  readonly projectKey: string;
  readonly issueType: string;
  readonly assigneeId: string;
}

/** A value of a config field: text (text, url, secret, select), a list, a switch, headers, or severity rows. */
export type ConfigValue = string | boolean | readonly string[] | readonly CustomHeader[] | readonly SeverityConfigRow[];
export type DestinationConfig = Readonly<Record<string, ConfigValue>>;

/** What a user enters for a destination (the form's values, the API's input). */
export interface DestinationInput {
  readonly outputType: DestinationType;
  readonly displayName: string;
  /** The severities whose alerts the destination takes by default (none: only explicit outputIds reach it). */
  readonly defaultForSeverity: readonly AlertSeverity[];
  readonly alertTypes: readonly AlertType[];
  /** Empty: every log type. */
  readonly logTypes: readonly string[];
  readonly config: DestinationConfig;
}

/**
 * Whether the destination's current configuration is known to work (the specification's verificationStatus):
 * NOT_VERIFIED until a Send Test Alert of the saved destination, then VERIFIED when the service accepted it or
 * FAILED when it did not; a save that changes the configuration makes it NOT_VERIFIED again.
 */
export const VERIFICATION_STATUSES = ['NOT_VERIFIED', 'VERIFIED', 'FAILED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** A saved destination (secrets masked when it comes from the API, clear only inside delivery). */
export interface Destination extends DestinationInput {
  /** The outputId: a UUID. */
  readonly id: string;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly lastModifiedTime: string;
  readonly lastModifiedBy: string;
  readonly revision: number;
  /** Absent on destinations saved before it existed: NOT_VERIFIED. */
  readonly verificationStatus?: VerificationStatus;
  /** When the last test of the saved destination was answered; null before any. */
  readonly verifiedAt?: string | null;
}

/** What resolution needs of a destination. */
export type RoutableDestination = Pick<Destination, 'id' | 'defaultForSeverity' | 'alertTypes' | 'logTypes'>;

/** A new destination takes every alert type. */
export const DEFAULT_ALERT_TYPES: readonly AlertType[] = ALERT_TYPES;
