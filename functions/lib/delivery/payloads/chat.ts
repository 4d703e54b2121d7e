// Chat services: a message per alert. Slack (Block Kit: incoming webhook, or chat.postMessage with a bot token),
// Microsoft Teams (an Adaptive Card message to an incoming webhook or workflow URL) and Discord (an embed to a
// channel webhook). A chat message cannot be updated by re-sending it, so these types take new alerts only.
import type { DeliveryAlert } from '../alert';
import type { OutboundRequest } from '../http';
import {
  cut,
  httpOutcome,
  jsonPost,
  kindWord,
  optional,
  required,
  severityWord,
  summaryFields,
  zonedTime,
  type Sender,
  type SendContext,
} from './common';

// --- Slack ------------------------------------------------------------------------------------------------

/** Slack's mrkdwn control characters, escaped as its API asks, so alert text is never read as markup or a mention. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const SEVERITY_EMOJI: Record<string, string> = {
  CRITICAL: ':red_circle:',
  HIGH: ':large_orange_circle:',
  MEDIUM: ':large_yellow_circle:',
  LOW: ':large_blue_circle:',
  INFO: ':white_circle:',
};

/**
 * The Block Kit message of an alert: header, fields, description, runbook, first events, a button to the alert.
 * `timeZone` (a Slack bot's timeLocation) shows the alert's time in that zone instead of UTC.
 */
export function slackMessage(alert: DeliveryAlert, options: { timeZone?: string } = {}): { text: string; blocks: unknown[] } {
  const fields = summaryFields(alert)
    .filter(([label]) => label !== 'Runbook' && label !== 'Reference')
    .map(([label, value]): [string, string] =>
      label === 'Created' && options.timeZone ? [label, zonedTime(alert.createdAt, options.timeZone)] : [label, value],
    )
    .slice(0, 10)
    .map(([label, value]) => ({ type: 'mrkdwn', text: cut(`*${label}*\n${slackEscape(value)}`, 2000) }));
  const blocks: unknown[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: cut(`${SEVERITY_EMOJI[alert.severity]} ${kindWord(alert)}: ${alert.title}`, 150),
        emoji: true,
      },
    },
    { type: 'section', fields },
  ];
  if (alert.description)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(slackEscape(alert.description), 3000) } });
  if (alert.runbook)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(`*Runbook*\n${slackEscape(alert.runbook)}`, 3000) } });
  if (alert.reference)
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: cut(`Reference: ${slackEscape(alert.reference)}`, 3000) }],
    });
  if (alert.context)
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*Alert context*\n\`\`\`${slackEscape(JSON.stringify(alert.context))}\`\`\``, 3000) },
    });
  if (alert.events.length)
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          `*First events* (${Math.min(3, alert.events.length)} of ${alert.eventCount})\n\`\`\`${slackEscape(
            alert.events
              .slice(0, 3)
              .map((e) => JSON.stringify(e))
              .join('\n'),
          )}\`\`\``,
          3000,
        ),
      },
    });
  blocks.push({
    type: 'actions',
    elements: [
      {
        type: 'button',
        text: { type: 'plain_text', text: 'Open in Caracal' },
        url: alert.link,
        action_id: 'caracal-open-alert',
        ...(alert.severity === 'CRITICAL' || alert.severity === 'HIGH' ? { style: 'danger' } : {}),
      },
    ],
  });
  // `text` is the notification's and screen readers' fallback.
  return { text: cut(`${severityWord(alert.severity)} ${kindWord(alert).toLowerCase()}: ${alert.title}`, 3000), blocks };
}

export const buildSlackWebhook = (config: Readonly<Record<string, unknown>>, alert: DeliveryAlert): OutboundRequest =>
  jsonPost(required(config, 'webhookURL'), slackMessage(alert));

export const slack: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildSlackWebhook(destination.config, alert)));
  },
};

export function buildSlackBot(
  config: Readonly<Record<string, unknown>>,
  alert: DeliveryAlert,
  context: Pick<SendContext, 'endpoint'>,
) {
  return jsonPost(
    `${context.endpoint('slackApi')}/chat.postMessage`,
    {
      channel: required(config, 'channel'),
      unfurl_links: false,
      ...slackMessage(alert, { timeZone: optional(config, 'timeLocation') }),
    },
    { authorization: `Bearer ${required(config, 'botToken')}`, 'content-type': 'application/json; charset=utf-8' },
  );
}

export const slackbot: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    const answer = await context.http(buildSlackBot(destination.config, alert, context));
    // The Web API answers 200 with `"ok": false` and an error code when it refuses.
    let ok = false;
    try {
      ok = (JSON.parse(answer.body) as { ok?: unknown }).ok === true;
    } catch {
      ok = false;
    }
    return httpOutcome(answer, answer.statusCode >= 200 && answer.statusCode < 300 && ok);
  },
};

// --- Microsoft Teams --------------------------------------------------------------------------------------

const TEAMS_COLOR: Record<string, string> = {
  CRITICAL: 'Attention',
  HIGH: 'Attention',
  MEDIUM: 'Warning',
  LOW: 'Accent',
  INFO: 'Default',
};

/** A message with one Adaptive Card attachment, the form incoming webhooks and workflow webhooks take. */
export function teamsMessage(alert: DeliveryAlert): unknown {
  const body: unknown[] = [
    {
      type: 'TextBlock',
      text: cut(`${kindWord(alert)}: ${alert.title}`, 500),
      weight: 'Bolder',
      size: 'Medium',
      wrap: true,
      color: TEAMS_COLOR[alert.severity],
    },
    {
      type: 'FactSet',
      facts: summaryFields(alert).map(([title, value]) => ({ title, value: cut(value, 1000) })),
    },
  ];
  if (alert.description) body.push({ type: 'TextBlock', text: cut(alert.description, 2000), wrap: true });
  if (alert.events.length)
    body.push(
      {
        type: 'TextBlock',
        text: `First events (${Math.min(3, alert.events.length)} of ${alert.eventCount})`,
        weight: 'Bolder',
        wrap: true,
      },
      {
        type: 'TextBlock',
        text: cut(
          alert.events
            .slice(0, 3)
            .map((e) => JSON.stringify(e))
            .join('\n\n'),
          3000,
        ),
        fontType: 'Monospace',
        wrap: true,
      },
    );
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          actions: [{ type: 'Action.OpenUrl', title: 'Open in Caracal', url: alert.link }],
        },
      },
    ],
  };
}

export const buildTeams = (config: Readonly<Record<string, unknown>>, alert: DeliveryAlert): OutboundRequest =>
  jsonPost(required(config, 'webhookURL'), teamsMessage(alert));

export const msteams: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildTeams(destination.config, alert)));
  },
};

// --- Discord ----------------------------------------------------------------------------------------------

const DISCORD_COLOR: Record<string, number> = {
  CRITICAL: 0xd32f2f,
  HIGH: 0xf57c00,
  MEDIUM: 0xfbc02d,
  LOW: 0x1976d2,
  INFO: 0x9e9e9e,
};

/** One embed (title 256, description 4096, at most 25 fields of 1024 characters), mentions disabled. */
export function discordMessage(alert: DeliveryAlert): unknown {
  const fields = summaryFields(alert).map(([name, value]) => ({
    name,
    value: cut(value, 1024),
    inline: name !== 'Runbook' && name !== 'Reference',
  }));
  if (alert.events.length)
    fields.push({
      name: `First events (${Math.min(3, alert.events.length)} of ${alert.eventCount})`,
      value: cut(
        '```json\n' +
          alert.events
            .slice(0, 3)
            .map((e) => JSON.stringify(e))
            .join('\n')
            .replace(/```/g, "'''") +
          '\n```',
        1024,
      ),
      inline: false,
    });
  return {
    username: 'Caracal',
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: cut(`${kindWord(alert)}: ${alert.title}`, 256),
        url: alert.link,
        description: cut(alert.description ?? '', 4096) || undefined,
        color: DISCORD_COLOR[alert.severity],
        timestamp: alert.createdAt,
        fields: fields.slice(0, 25),
        footer: { text: `Caracal · alert ${alert.id}` },
      },
    ],
  };
}

/** `wait=true` makes Discord answer with the message it created (200) rather than an empty 204. */
export function buildDiscord(config: Readonly<Record<string, unknown>>, alert: DeliveryAlert): OutboundRequest {
  const url = new URL(required(config, 'webhookURL'));
  url.searchParams.set('wait', 'true');
  return jsonPost(url.toString(), discordMessage(alert));
}

export const discord: Sender = {
  supportsUpdates: false,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildDiscord(destination.config, alert)));
  },
};
