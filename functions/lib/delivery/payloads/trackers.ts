// Issue trackers: an issue or task per alert. Jira Cloud (REST v3, the description in Atlassian Document
// Format, basic auth with an email and an API token), Jira Data Center (REST v2, plain-text description, a
// personal access token as a bearer token, or basic auth when a user name is set), Asana (a task in the
// configured projects) and GitHub (an issue in the repository). Sending again would open a second issue, so
// these types take new alerts only.
// Status sync (docs/destinations.md): the created issue's key / task's gid is kept with the delivery
// (`reference`); when the alert's status changes, Jira's issue is moved through the workflow transition leading
// to the status its statusMap names (syncStatus), and Asana's task is completed or reopened (syncAlertStatus).
import type { AlertSeverity, AlertStatus } from '../../../../core/alerts/model';
import { JIRA_STATUS_MAP_FIELDS } from '../../../../core/destinations/types';
import type { DeliveryAlert } from '../alert';
import type { OutboundAnswer, OutboundRequest } from '../http';
import {
  ConfigError,
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
  type DeliveryOutcome,
  type Sender,
  type SendContext,
  type AssigneeSync,
  type CommentSync,
  type StatusSync,
} from './common';

/** A successful creation's outcome, with what the service answered it opened (when it says). */
function created(answer: OutboundAnswer, reference: (body: Record<string, unknown>) => unknown): DeliveryOutcome {
  const outcome = httpOutcome(answer);
  if (!outcome.ok) return outcome;
  try {
    const value = reference(JSON.parse(answer.body) as Record<string, unknown>);
    return typeof value === 'string' && value ? { ...outcome, reference: value } : outcome;
  } catch {
    return outcome;
  }
}

const isOn = (config: Readonly<Record<string, unknown>>, name: string) => config[name] === true;

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

/**
 * The config an alert's issue is opened with: with useSeverityBasedConfig on, the project key, issue type and
 * assignee of the severity's row of severityBasedConfig, each empty cell (or a missing row) taking the main field.
 */
export function jiraConfigFor(
  config: Readonly<Record<string, unknown>>,
  severity: AlertSeverity,
): Readonly<Record<string, unknown>> {
  if (!isOn(config, 'useSeverityBasedConfig') || !Array.isArray(config.severityBasedConfig)) return config;
  const row = (config.severityBasedConfig as unknown[]).find(
    (r): r is Record<string, unknown> => !!r && typeof r === 'object' && (r as { severity?: unknown }).severity === severity,
  );
  if (!row) return config;
  const chosen: Record<string, unknown> = { ...config };
  for (const name of ['projectKey', 'issueType', 'assigneeId'])
    if (typeof row[name] === 'string' && (row[name] as string).trim()) chosen[name] = row[name];
  return chosen;
}

function jiraFields(
  destinationConfig: Readonly<Record<string, unknown>>,
  alert: DeliveryAlert,
  cloud: boolean,
): Record<string, unknown> {
  const config = jiraConfigFor(destinationConfig, alert.severity);
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
  return jsonPost(
    `${base(required(config, 'orgDomain'))}/rest/api/2/issue`,
    { fields: jiraFields(config, alert, false) },
    { authorization: jiraAuthorization(config, false), accept: 'application/json' },
  );
}

const jiraAuthorization = (config: Readonly<Record<string, unknown>>, cloud: boolean) => {
  const user = cloud ? required(config, 'userName') : optional(config, 'userName');
  const key = required(config, 'apiKey');
  return user ? `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}` : `Bearer ${key}`;
};

/** The Jira status an alert status maps to (statusMap*, else its default). */
export function jiraStatusFor(config: Readonly<Record<string, unknown>>, status: AlertStatus): string {
  const field = JIRA_STATUS_MAP_FIELDS.find((f) => f.status === status)!;
  return optional(config, field.name) ?? field.defaultValue;
}

interface JiraTransition {
  readonly id?: unknown;
  readonly to?: { readonly name?: unknown };
}

/**
 * Moves the issue to the status mapped for the alert's status: reads the issue's transitions and takes the one
 * leading there (already there: nothing to do); none leads there: a failure naming the reachable statuses.
 */
export async function jiraSyncStatus(
  config: Readonly<Record<string, unknown>>,
  sync: StatusSync,
  context: Pick<SendContext, 'http'>,
  cloud: boolean,
): Promise<DeliveryOutcome> {
  const api = `${base(required(config, 'orgDomain'))}/rest/api/${cloud ? 3 : 2}/issue/${encodeURIComponent(sync.reference)}`;
  const headers = { authorization: jiraAuthorization(config, cloud), accept: 'application/json' };
  const target = jiraStatusFor(config, sync.status);
  const issue = await context.http({ url: `${api}?fields=status`, method: 'GET', headers });
  if (issue.statusCode < 200 || issue.statusCode >= 300) return httpOutcome(issue);
  const current = (JSON.parse(issue.body) as { fields?: { status?: { name?: unknown } } }).fields?.status?.name;
  if (typeof current === 'string' && current.toLowerCase() === target.toLowerCase())
    return { ok: true, statusCode: issue.statusCode, answer: `${sync.reference} is already in ${current}` };
  const listed = await context.http({ url: `${api}/transitions`, method: 'GET', headers });
  if (listed.statusCode < 200 || listed.statusCode >= 300) return httpOutcome(listed);
  const transitions = ((JSON.parse(listed.body) as { transitions?: JiraTransition[] }).transitions ?? []).filter(
    (t) => typeof t.id === 'string' && typeof t.to?.name === 'string',
  );
  const chosen = transitions.find((t) => String(t.to!.name).toLowerCase() === target.toLowerCase());
  if (!chosen) {
    const reachable = transitions.map((t) => String(t.to!.name)).join(', ') || 'none';
    return {
      ok: false,
      statusCode: listed.statusCode,
      answer: cut(`${sync.reference} has no transition to "${target}" (reachable: ${reachable}); check the status map`, 500),
      permanent: true,
    };
  }
  const moved = httpOutcome(await context.http(jsonPost(`${api}/transitions`, { transition: { id: chosen.id } }, headers)));
  return moved.ok ? { ...moved, answer: `${sync.reference} moved to ${String(chosen.to!.name)}` } : moved;
}

/**
 * Assigns the issue to the Jira account found by the assignee's email (Jira's user search by query; Data
 * Center: by username), or unassigns it when the alert has no assignee; no account found: a failure naming the email.
 */
export async function jiraSyncAssignee(
  config: Readonly<Record<string, unknown>>,
  sync: AssigneeSync,
  context: Pick<SendContext, 'http'>,
  cloud: boolean,
): Promise<DeliveryOutcome> {
  const root = `${base(required(config, 'orgDomain'))}/rest/api/${cloud ? 3 : 2}`;
  const headers = { authorization: jiraAuthorization(config, cloud), accept: 'application/json' };
  const issueApi = `${root}/issue/${encodeURIComponent(sync.reference)}/assignee`;
  let account: string | null = null;
  if (sync.email) {
    const search = `${root}/user/search?${cloud ? 'query' : 'username'}=${encodeURIComponent(sync.email)}`;
    const found = await context.http({ url: search, method: 'GET', headers });
    if (found.statusCode < 200 || found.statusCode >= 300) return httpOutcome(found);
    const users = JSON.parse(found.body) as { accountId?: unknown; name?: unknown; emailAddress?: unknown }[];
    const email = sync.email.toLowerCase();
    const candidates = Array.isArray(users) ? users : [];
    const match =
      candidates.find((u) => typeof u.emailAddress === 'string' && u.emailAddress.toLowerCase() === email) ??
      (candidates.length === 1 ? candidates[0] : undefined);
    const id = cloud ? match?.accountId : match?.name;
    if (typeof id !== 'string' || !id)
      return {
        ok: false,
        statusCode: found.statusCode,
        answer: cut(`No Jira user found for ${sync.email}; ${sync.reference} was not assigned`, 500),
        permanent: true,
      };
    account = id;
  }
  const body = cloud ? { accountId: account } : { name: account };
  const put = httpOutcome(await context.http({ ...jsonPost(issueApi, body, headers), method: 'PUT' }));
  if (!put.ok) return put;
  return { ...put, answer: account ? `${sync.reference} assigned to ${sync.email}` : `${sync.reference} unassigned` };
}

/** A comment's text as Jira takes it: at most this many characters (Jira refuses more than 32,767). */
export const JIRA_COMMENT_MAX = 30_000;

/**
 * Adds the alert's comment to the issue: the author's name, then the text as plain text (Cloud: a paragraph per
 * line in an Atlassian Document; Data Center: a string). The markdown is not converted.
 */
export async function jiraSyncComment(
  config: Readonly<Record<string, unknown>>,
  sync: CommentSync,
  context: Pick<SendContext, 'http'>,
  cloud: boolean,
): Promise<DeliveryOutcome> {
  const url = `${base(required(config, 'orgDomain'))}/rest/api/${cloud ? 3 : 2}/issue/${encodeURIComponent(sync.reference)}/comment`;
  const headers = { authorization: jiraAuthorization(config, cloud), accept: 'application/json' };
  const heading = `${sync.author} commented in Caracal:`;
  const text = cut(sync.text, JIRA_COMMENT_MAX);
  const body = cloud
    ? {
        body: {
          type: 'doc',
          version: 1,
          content: [heading, ...text.split(/\r?\n/)].map((line) => ({
            type: 'paragraph',
            content: line ? [{ type: 'text', text: line }] : [],
          })),
        },
      }
    : { body: `${heading}\n\n${text}` };
  const posted = httpOutcome(await context.http(jsonPost(url, body, headers)));
  return posted.ok ? { ...posted, answer: `Comment added to ${sync.reference}` } : posted;
}

const jiraIssueKey = (body: Record<string, unknown>) => body.key;

export const jira: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return created(await context.http(buildJiraCloud(destination.config, alert)), jiraIssueKey);
  },
  syncsStatus: (config) => isOn(config, 'syncStatus'),
  syncStatus: (destination, sync, context) => jiraSyncStatus(destination.config, sync, context, true),
  syncsAssignee: (config) => isOn(config, 'syncAssignee'),
  syncAssignee: (destination, sync, context) => jiraSyncAssignee(destination.config, sync, context, true),
  syncsComments: (config) => isOn(config, 'syncComments'),
  syncComment: (destination, sync, context) => jiraSyncComment(destination.config, sync, context, true),
};

export const jiradatacenter: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return created(await context.http(buildJiraDataCenter(destination.config, alert)), jiraIssueKey);
  },
  syncsStatus: (config) => isOn(config, 'syncStatus'),
  syncStatus: (destination, sync, context) => jiraSyncStatus(destination.config, sync, context, false),
  syncsAssignee: (config) => isOn(config, 'syncAssignee'),
  syncAssignee: (destination, sync, context) => jiraSyncAssignee(destination.config, sync, context, false),
  syncsComments: (config) => isOn(config, 'syncComments'),
  syncComment: (destination, sync, context) => jiraSyncComment(destination.config, sync, context, false),
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

/** The task is complete while the alert is resolved or closed, incomplete while it is open or triaged. */
export function buildAsanaStatus(
  config: Readonly<Record<string, unknown>>,
  sync: StatusSync,
  context: Pick<SendContext, 'endpoint'>,
): OutboundRequest {
  if (!/^\d+$/.test(sync.reference)) throw new ConfigError(`Not an Asana task gid: ${sync.reference}`);
  return {
    ...jsonPost(
      `${context.endpoint('asana')}/tasks/${sync.reference}`,
      { data: { completed: sync.status === 'RESOLVED' || sync.status === 'CLOSED' } },
      { authorization: `Bearer ${required(config, 'personalAccessToken')}`, accept: 'application/json' },
    ),
    method: 'PUT',
  };
}

export const asana: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return created(await context.http(buildAsana(destination.config, alert, context)), (body) => {
      const data = body.data as Record<string, unknown> | undefined;
      return data?.gid;
    });
  },
  syncsStatus: (config) => isOn(config, 'syncAlertStatus'),
  async syncStatus(destination, sync, context) {
    return httpOutcome(await context.http(buildAsanaStatus(destination.config, sync, context)));
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
