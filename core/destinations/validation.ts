// Validation of destinations, with the specification's messages. The web form (through yup) and the API call the
// same functions. Field rules answer a message or undefined; validateDestination answers every problem at the
// form's field path (`displayName`, `config.webhookURL`, `config.customHeaders[1].name`).
import { ALERT_SEVERITIES, ALERT_TYPES } from '../alerts/model';
import { refusedHost } from '../net/addresses';
import { FIELD_REQUIRED, NO_DUPLICATES, hasControlCharacters, tooLong } from '../validation/generic';
import { nameError } from '../validation/name';
import { DESTINATION_TYPE_INFO, MASKED_SECRET, isDestinationType, type DestinationField, type DestinationType } from './types';

export const MESSAGES = {
  required: FIELD_REQUIRED,
  mustHaveValue: 'Must have a value',
  noDuplicates: NO_DUPLICATES,
  digitsOnly: 'The field should have digits only',
  /** The specification's message, and the rule a user has to follow. */
  webhookUrl: 'Must be a valid webhook URL (https; http only to localhost or 127.0.0.1)',
  siteUrl: 'Must be a valid URL (https; http only to localhost or 127.0.0.1)',
  /** A URL naming a link-local or cloud metadata address (or another the outbound client always refuses). */
  refusedAddress: 'Must not point to a link-local, cloud metadata, multicast or reserved address',
  hex32: 'Must be a 32-character hexadecimal key',
  snsTopicArn: 'Must be a valid SNS topic ARN (arn:aws:sns:region:123456789012:name)',
  sqsQueueUrl: 'Must be a valid SQS queue URL (https://sqs.region.amazonaws.com/123456789012/name)',
  gcpProjectId: 'Must be a valid project ID: 6 to 30 lowercase letters, digits and hyphens, starting with a letter',
  gcpTopicId: 'Must be a valid topic ID: 3 to 255 characters starting with a letter',
  gcpCredentials: 'Must be the JSON key of a service account (with client_email and private_key)',
  githubRepo: 'Must be a repository as owner/name',
  jiraProjectKey: 'Must be a project key: a capital letter then capitals, digits or underscores',
  domain: 'Must be a valid domain name',
  email: 'Must be a valid email address',
  slackChannel: 'Must be a channel name (#name) or id',
  timeZone: 'Must be a time zone name such as UTC or Europe/Paris',
  headerName: 'Must be a valid HTTP header name',
  headerValue: 'Must not contain control characters',
  unknownType: 'Unknown destination type',
  unknownSeverity: 'Unknown severity',
  unknownAlertType: 'Unknown alert type',
  unknownOption: 'Must be one of the offered values',
  logType: 'Must be a log type name',
  displayNameTaken: 'You already have a destination with the same name',
  maskedOnCreate: 'Enter the value: there is no saved value to keep',
} as const;

export const LIMITS = {
  text: 1024,
  url: 2048,
  secret: 8192,
  listItems: 50,
  headers: 20,
  headerName: 128,
  logTypes: 100,
  logTypeName: 255,
} as const;

export interface Problem {
  /** The field path, as the form names fields (`displayName`, `config.webhookURL`). */
  readonly path: string;
  readonly message: string;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a URL names, as its host, an address Caracal never sends to (core/net/addresses.ts: link-local and
 * cloud metadata addresses such as 169.254.169.254, fe80::/10, ::ffff:169.254.169.254, in any encoding the URL
 * parser reads as one of them). The outbound client refuses them when sending as well; this refuses them when
 * a destination is saved. False for a URL that does not parse (its format rule answers that).
 */
export function namesRefusedAddress(value: string): boolean {
  try {
    return refusedHost(new URL(value).hostname) !== null;
  } catch {
    return false;
  }
}

/** https anywhere; http only to a loopback host (local testing); no credentials in the URL. */
export function isWebhookUrl(value: string): boolean {
  if (value.length > LIMITS.url || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hostname === '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname));
}

const PARTITION = '(aws|aws-cn|aws-us-gov)';
const REGION = '[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\\d';
const FORMATS = {
  hex32: /^[a-fA-F0-9]{32}$/,
  snsTopicArn: new RegExp(`^arn:${PARTITION}:sns:${REGION}:\\d{12}:[A-Za-z0-9_-]{1,256}(\\.fifo)?$`),
  gcpProjectId: /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/,
  gcpTopicId: /^[A-Za-z][A-Za-z0-9\-_.~+%]{2,254}$/,
  githubRepo: /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/,
  jiraProjectKey: /^[A-Z][A-Z0-9_]{1,254}$/,
  domain: /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/,
  digits: /^\d+$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  slackChannel: /^(#[a-z0-9_-]{1,80}|[CGD][A-Z0-9]{8,})$/,
} as const;

/**
 * An SQS queue URL: the AWS form (`https://sqs.<region>.amazonaws.com/<account>/<name>`), or the local SQS
 * stand-in's over http (`http://sqs.<region>.127.0.0.1:<port>/<account>/<name>`, or a loopback host).
 */
function isSqsQueueUrl(value: string): boolean {
  if (value.length > LIMITS.url) return false;
  // The stand-in's host is not a valid URL host (its last label is numeric), so it is matched as text.
  if (/^http:\/\/sqs\.[a-z0-9-]+\.(127\.0\.0\.1|localhost)(:\d{1,5})?\/\d{12}\/[A-Za-z0-9_-]{1,80}(\.fifo)?$/.test(value))
    return true;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || !/^\/\d{12}\/[A-Za-z0-9_-]{1,80}(\.fifo)?$/.test(url.pathname)) return false;
  if (url.protocol === 'https:') return /^sqs\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/.test(url.hostname);
  return isWebhookUrl(value);
}

function isGcpCredentials(value: string): boolean {
  try {
    const key = JSON.parse(value) as unknown;
    if (typeof key !== 'object' || key === null) return false;
    const { client_email: email, private_key: privateKey } = key as Record<string, unknown>;
    return isText(email) && email.includes('@') && isText(privateKey) && privateKey.includes('PRIVATE KEY');
  } catch {
    return false;
  }
}

/** An IANA time zone name the runtime knows (Intl), e.g. UTC, Europe/Paris. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function formatError(format: DestinationField['format'], value: string): string | undefined {
  switch (format) {
    case undefined:
      return undefined;
    case 'timeZone':
      return isTimeZone(value) ? undefined : MESSAGES.timeZone;
    case 'webhookUrl':
      if (!isWebhookUrl(value)) return MESSAGES.webhookUrl;
      return namesRefusedAddress(value) ? MESSAGES.refusedAddress : undefined;
    case 'siteUrl':
      if (!isWebhookUrl(value)) return MESSAGES.siteUrl;
      return namesRefusedAddress(value) ? MESSAGES.refusedAddress : undefined;
    case 'sqsQueueUrl':
      if (!isSqsQueueUrl(value)) return MESSAGES.sqsQueueUrl;
      return namesRefusedAddress(value) ? MESSAGES.refusedAddress : undefined;
    case 'gcpCredentials':
      return isGcpCredentials(value) ? undefined : MESSAGES.gcpCredentials;
    case 'digits':
      return FORMATS.digits.test(value) ? undefined : MESSAGES.digitsOnly;
    default:
      return FORMATS[format].test(value) ? undefined : MESSAGES[format];
  }
}

export interface FieldRuleOptions {
  /** Editing a saved destination: a secret left as MASKED_SECRET keeps its saved value. */
  readonly maskedKeepsSaved?: boolean;
}

/** A header name (RFC 9110 token) and a value without control characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Problems of one config field's value, at paths relative to the field (`''`, `[1].name`). */
export function fieldProblems(field: DestinationField, value: unknown, options: FieldRuleOptions = {}): Problem[] {
  const at = (message: string, path = ''): Problem[] => [{ path, message }];
  const empty = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) return field.required ? at(MESSAGES.required) : [];
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? [] : at(MESSAGES.mustHaveValue);
    case 'list': {
      if (!Array.isArray(value) || !value.every(isText)) return at(MESSAGES.mustHaveValue);
      if (value.length > LIMITS.listItems) return at(`Must have at most ${LIMITS.listItems} items`);
      if (new Set(value).size !== value.length) return at(MESSAGES.noDuplicates);
      for (const item of value) {
        if (item.trim() === '') return at(MESSAGES.required);
        if (item.length > LIMITS.text) return at(tooLong(LIMITS.text));
        if (hasControlCharacters(item)) return at(MESSAGES.headerValue);
        const message = formatError(field.format, item);
        if (message) return at(message);
      }
      return [];
    }
    case 'headers': {
      if (!Array.isArray(value)) return at(MESSAGES.mustHaveValue);
      if (value.length > LIMITS.headers) return at(`Must have at most ${LIMITS.headers} items`);
      const problems: Problem[] = [];
      const names = new Set<string>();
      value.forEach((header: unknown, index) => {
        const { name, value: headerValue } = (header ?? {}) as Record<string, unknown>;
        if (!isText(name) || name.trim() === '') problems.push({ path: `[${index}].name`, message: MESSAGES.required });
        else if (name.length > LIMITS.headerName || !HEADER_NAME.test(name))
          problems.push({ path: `[${index}].name`, message: MESSAGES.headerName });
        else if (names.has(name.toLowerCase())) problems.push({ path: `[${index}].name`, message: MESSAGES.noDuplicates });
        else names.add(name.toLowerCase());
        if (!isText(headerValue) || headerValue === '') problems.push({ path: `[${index}].value`, message: MESSAGES.required });
        else if (headerValue === MASKED_SECRET && !options.maskedKeepsSaved)
          problems.push({ path: `[${index}].value`, message: MESSAGES.maskedOnCreate });
        else if (headerValue.length > LIMITS.text || hasControlCharacters(headerValue))
          problems.push({ path: `[${index}].value`, message: MESSAGES.headerValue });
      });
      return problems;
    }
    case 'severityConfig': {
      if (!Array.isArray(value) || value.length > ALERT_SEVERITIES.length) return at(MESSAGES.mustHaveValue);
      const problems: Problem[] = [];
      const seen = new Set<unknown>();
      value.forEach((row: unknown, index) => {
        const { severity, projectKey, issueType, assigneeId } = (row ?? {}) as Record<string, unknown>;
        if (!(ALERT_SEVERITIES as readonly unknown[]).includes(severity))
          problems.push({ path: `[${index}].severity`, message: MESSAGES.unknownSeverity });
        else if (seen.has(severity)) problems.push({ path: `[${index}].severity`, message: MESSAGES.noDuplicates });
        seen.add(severity);
        for (const [name, cell] of [
          ['projectKey', projectKey],
          ['issueType', issueType],
          ['assigneeId', assigneeId],
        ] as const) {
          if (cell === undefined || cell === null || cell === '') continue;
          if (!isText(cell)) problems.push({ path: `[${index}].${name}`, message: MESSAGES.mustHaveValue });
          else if (cell.length > LIMITS.text) problems.push({ path: `[${index}].${name}`, message: tooLong(LIMITS.text) });
          else if (hasControlCharacters(cell)) problems.push({ path: `[${index}].${name}`, message: MESSAGES.headerValue });
          else if (name === 'projectKey' && cell.trim()) {
            const message = formatError('jiraProjectKey', cell.trim());
            if (message) problems.push({ path: `[${index}].${name}`, message });
          }
        }
      });
      return problems;
    }
    case 'select':
      if (!isText(value)) return at(MESSAGES.mustHaveValue);
      return field.options?.some((option) => option.value === value) ? [] : at(MESSAGES.unknownOption);
    case 'text':
    case 'url':
    case 'secret': {
      if (!isText(value)) return at(MESSAGES.mustHaveValue);
      if (field.secret && value === MASKED_SECRET) return options.maskedKeepsSaved ? [] : at(MESSAGES.maskedOnCreate);
      const trimmed = value.trim();
      if (trimmed === '') return field.required ? at(MESSAGES.required) : [];
      const max = field.kind === 'secret' ? LIMITS.secret : field.kind === 'url' ? LIMITS.url : LIMITS.text;
      if (value.length > max) return at(tooLong(max));
      if (field.format !== 'gcpCredentials' && hasControlCharacters(value)) return at(MESSAGES.headerValue);
      const message = formatError(field.format, trimmed);
      return message ? at(message) : [];
    }
  }
}

/** The first problem of one config field, for a form field's rule. */
export function fieldError(field: DestinationField, value: unknown, options: FieldRuleOptions = {}): string | undefined {
  return fieldProblems(field, value, options)[0]?.message;
}

/** displayName: the specification's name rule. */
export const validateDisplayName = (value: unknown): string | undefined => nameError(value);

export function validateSeverities(value: unknown): string | undefined {
  if (!Array.isArray(value)) return MESSAGES.mustHaveValue;
  if (!value.every((item) => (ALERT_SEVERITIES as readonly unknown[]).includes(item))) return MESSAGES.unknownSeverity;
  if (new Set(value).size !== value.length) return MESSAGES.noDuplicates;
  return undefined;
}

export function validateAlertTypes(value: unknown): string | undefined {
  if (!Array.isArray(value)) return MESSAGES.mustHaveValue;
  if (value.length === 0) return MESSAGES.required;
  if (!value.every((item) => (ALERT_TYPES as readonly unknown[]).includes(item))) return MESSAGES.unknownAlertType;
  if (new Set(value).size !== value.length) return MESSAGES.noDuplicates;
  return undefined;
}

export function validateLogTypeList(value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every(isText)) return MESSAGES.mustHaveValue;
  if (value.length > LIMITS.logTypes) return `Must have at most ${LIMITS.logTypes} items`;
  if (new Set(value).size !== value.length) return MESSAGES.noDuplicates;
  if (value.some((name) => name.length > LIMITS.logTypeName || !/^[A-Za-z0-9_.]+$/.test(name))) return MESSAGES.logType;
  return undefined;
}

export interface DestinationValidationOptions extends FieldRuleOptions {
  /** Whether the Torq type is offered (its feature flag). */
  readonly torqEnabled: boolean;
}

/** Every problem of a destination's input; empty when it can be saved. */
export function validateDestination(input: unknown, options: DestinationValidationOptions): Problem[] {
  const values = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const problems: Problem[] = [];
  const add = (path: string, message: string | undefined) => {
    if (message) problems.push({ path, message });
  };
  const { outputType } = values;
  if (!isDestinationType(outputType) || (outputType === 'torq' && !options.torqEnabled)) {
    add('outputType', MESSAGES.unknownType);
  }
  add('displayName', validateDisplayName(values.displayName));
  add('defaultForSeverity', validateSeverities(values.defaultForSeverity));
  add('alertTypes', validateAlertTypes(values.alertTypes));
  add('logTypes', validateLogTypeList(values.logTypes));
  if (isDestinationType(outputType)) problems.push(...configProblems(outputType, values.config, options));
  return problems;
}

/** The problems of a type's config, at `config.<field>` paths; fields the type does not have are refused. */
export function configProblems(type: DestinationType, config: unknown, options: FieldRuleOptions = {}): Problem[] {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return [{ path: 'config', message: MESSAGES.mustHaveValue }];
  }
  const values = config as Record<string, unknown>;
  const fields = DESTINATION_TYPE_INFO[type].fields;
  const problems: Problem[] = [];
  for (const name of Object.keys(values)) {
    if (!fields.some((field) => field.name === name)) problems.push({ path: `config.${name}`, message: 'Unknown field' });
  }
  for (const field of fields) {
    for (const problem of fieldProblems(field, values[field.name], options)) {
      problems.push({ path: `config.${field.name}${problem.path}`, message: problem.message });
    }
  }
  return problems;
}
