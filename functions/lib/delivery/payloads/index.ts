// Every destination type's sender, by outputType (core/destinations: DESTINATION_TYPES).
import type { DestinationType } from '../../../../core/destinations/types';
import { discord, msteams, slack, slackbot } from './chat';
import { gcppubsub, sns, sqs } from './cloud';
import type { Sender } from './common';
import { opsgenie, pagerduty } from './paging';
import { asana, github, jira, jiradatacenter } from './trackers';
import { blinkops, customwebhook, incidentio, mindflow, rapid7, splunk, tines, torq } from './webhooks';

export const SENDERS: Readonly<Record<DestinationType, Sender>> = {
  asana,
  sns,
  sqs,
  blinkops,
  customwebhook,
  discord,
  gcppubsub,
  github,
  incidentio,
  jira,
  jiradatacenter,
  mindflow,
  msteams,
  opsgenie,
  pagerduty,
  rapid7,
  slackbot,
  slack,
  splunk,
  tines,
  torq,
};

export const senderOf = (outputType: string): Sender | undefined =>
  Object.prototype.hasOwnProperty.call(SENDERS, outputType) ? SENDERS[outputType as DestinationType] : undefined;

/** Whether an alert that gained events is delivered again to this type (see each family's module). */
export const supportsUpdates = (outputType: string): boolean => senderOf(outputType)?.supportsUpdates ?? false;

export {
  SERVICE_ENDPOINTS,
  ConfigError,
  type DeliveryDestination,
  type DeliveryOutcome,
  type SendContext,
  type AssigneeSync,
  type CommentSync,
  type Sender,
  type StatusSync,
  type ServiceEndpoint,
} from './common';
