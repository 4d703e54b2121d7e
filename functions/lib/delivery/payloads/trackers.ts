// Issue trackers: an issue or task per alert. Jira Cloud (REST v3, the description in Atlassian Document
// Format, basic auth with an email and an API token), Jira Data Center (REST v2, plain-text description, a
// personal access token as a bearer token, or basic auth when a user name is set), Asana (a task in the
// configured projects) and GitHub (an issue in the repository). Sending again would open a second issue, so
// these types take new alerts only.
import type { AlertSeverity } from '../../../../core/alerts/model';
import type { DeliveryAlert } from '../alert';
import type { OutboundRequest } from '../http';
import {
  cut,
  httpOutcome,
  jsonPost,
  kindWord,
  list,
  markdown,
  optional,
  plainText,
  required,
  summaryFields,
  type Sender,
  type SendContext,
} from './common';

// --- Jira -------------------------------------------------------------------------------------------------

const JIRA_PRIORITY: Record<AlertSeverity, string> = {
  CRITICAL: 'Highest',
  HIGH: 'High',
  MEDIUM: 'Medium',
  LOW: 'Low',
  INFO: 'Lowest',
};

const base = (orgDomain: string) => orgDomain.replace(/\/+$/, '');
const summary = (alert: DeliveryAlert) => cut(`${kindWord(alert)}: ${alert.title}`.replace(/[\r\n]+/g, ' '), 255);
/** Jira labels cannot hold spaces. */
const labels = (config: Readonly<Record<string, unknown>>) => list(config, 'labels').map((l) => l.replace(/\s+/g, '_'));

/** The description as an Atlassian Document: a paragraph per field, events in a code block, a link to the alert. */
export function jiraDocument(alert: DeliveryAlert): unknown {
  const text = (t: string, marks?: unknown[]) => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });
  const content: unknown[] = [
    {
      type: 'paragraph',
      content: summaryFields(alert).flatMap(([label, value], i) => [
        ...(i ? [{ type: 'hardBreak' }] : []),
        text(`${label}: `, [{ type: 'strong' }]),
        text(cut(value, 2000)),
      ]),
    },
  ];
  if (alert.description) content.push({ type: 'paragraph', content: [text(cut(alert.description, 10000))] });
  if (alert.context)
    content.push({
      type: 'codeBlock',
      attrs: { language: 'json' },
      content: [text(cut(JSON.stringify(alert.context, null, 2), 10000))],
    });
  if (alert.events.length)
    content.push(
      {
        type: 'paragraph',
        content: [text(`First events (${Math.min(5, alert.events.length)} of ${alert.eventCount})`, [{ type: 'strong' }])],
      },
      {
        type: 'codeBlock',
        attrs: { language: 'json' },
        content: [
          text(
            cut(
              alert.events
                .slice(0, 5)
                .map((e) => JSON.stringify(e))
                .join('\n'),
              20000,
            ),
          ),
        ],
      },
    );
  content.push({ type: 'paragraph', content: [text('Open in Caracal', [{ type: 'link', attrs: { href: alert.link } }])] });
  return { type: 'doc', version: 1, content };
}

function jiraFields(config: Readonly<Record<string, unknown>>, alert: DeliveryAlert, cloud: boolean): Record<string, unknown> {
  const assignee = optional(config, 'assigneeId');
  return {
    project: { key: required(config, 'projectKey') },
    issuetype: { name: optional(config, 'issueType') ?? 'Task' },
    summary: summary(alert),
    description: cloud ? jiraDocument(alert) : cut(plainText(alert, 5), 30000),
    labels: labels(config),
    priority: { name: optional(config, 'priority') ?? JIRA_PRIORITY[alert.severity] },
    ...(assignee ? { assignee: cloud ? { accountId: assignee } : { name: assignee } } : {}),
  };
}

export function buildJiraCloud(config: Readonly<Record<string, unknown>>, alert: DeliveryAlert): OutboundRequest {
  const auth = Buffer.from(`${required(config, 'userName')}:${required(config, 'apiKey')}`).toString('base64');
  return jsonPost(
    `${base(required(config, 'orgDomain'))}/rest/api/3/issue`,
    { fields: jiraFields(config, alert, true) },
    { authorization: `Basic ${auth}`, accept: 'application/json' },
  );
}

export function buildJiraDataCenter(config: Readonly<Record<string, unknown>>, alert: DeliveryAlert): OutboundRequest {
  const user = optional(config, 'userName');
  const key = required(config, 'apiKey');
  const authorization = user ? `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}` : `Bearer ${key}`;
  return jsonPost(
    `${base(required(config, 'orgDomain'))}/rest/api/2/issue`,
    { fields: jiraFields(config, alert, false) },
    { authorization, accept: 'application/json' },
  );
}

export const jira: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildJiraCloud(destination.config, alert)));
  },
};

export const jiradatacenter: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildJiraDataCenter(destination.config, alert)));
  },
};

// --- Asana ------------------------------------------------------------------------------------------------

export function buildAsana(
  config: Readonly<Record<string, unknown>>,
  alert: DeliveryAlert,
  context: Pick<SendContext, 'endpoint'>,
) {
  const projects = list(config, 'projectGids');
  if (!projects.length) required(config, 'projectGids');
  return jsonPost(
    `${context.endpoint('asana')}/tasks`,
    { data: { name: summary(alert), notes: cut(plainText(alert, 5), 60000), projects } },
    { authorization: `Bearer ${required(config, 'personalAccessToken')}`, accept: 'application/json' },
  );
}

export const asana: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildAsana(destination.config, alert, context)));
  },
};

// --- GitHub -----------------------------------------------------------------------------------------------

export function buildGitHub(
  config: Readonly<Record<string, unknown>>,
  alert: DeliveryAlert,
  context: Pick<SendContext, 'endpoint'>,
) {
  const repo = required(config, 'repoName');
  const [owner, name] = repo.split('/');
  if (!owner || !name) required({}, 'repoName');
  return jsonPost(
    `${context.endpoint('github')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/issues`,
    {
      title: cut(summary(alert), 256),
      body: cut(markdown(alert, 5), 65000),
      labels: ['caracal', `severity:${alert.severity.toLowerCase()}`],
    },
    {
      authorization: `Bearer ${required(config, 'token')}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    },
  );
}

export const github: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildGitHub(destination.config, alert, context)));
  },
};
