// Validation of log sources, with the specification's messages. The web forms (through yup) and the API's
// resolvers call the same functions. Field rules answer a message or undefined; source rules answer a list
// of problems whose paths are the form's field paths (`prefixes[0].excludedPrefixes[1]`).
import { FIELD_REQUIRED, NO_DUPLICATES, tooLong, tooShort } from '../validation/generic';
import { NAME_CHARACTERS, NAME_TOO_LONG } from '../validation/name';
import { TRANSPORT_INFO, type HttpAuthType, type LogSourceTransport, type StreamType } from './types';

export const MESSAGES = {
  required: FIELD_REQUIRED,
  mustHaveValue: 'Must have a value',
  noDuplicates: NO_DUPLICATES,
  digitsOnly: 'The field should have digits only',
  labelCharacters: NAME_CHARACTERS,
  labelLength: NAME_TOO_LONG,
  accountIdLength: 'Must be exactly 12 digits',
  bucketName: 'Must be a valid S3 bucket name: 3 to 63 lowercase letters, digits, hyphens and dots',
  roleArn: 'Must be a valid IAM role ARN (arn:aws:iam::123456789012:role/name)',
  kmsKey: 'Must be a valid KMS key ARN (arn:aws:kms:region:123456789012:key/id)',
  sqsArn: 'Must be a valid SQS queue ARN (arn:aws:sqs:region:123456789012:name)',
  principalArn: 'Must be a 12-digit AWS account id or an IAM ARN (arn:aws:iam::123456789012:role/name)',
  sourceArn: 'Must be a valid AWS resource ARN',
  s3Url: 'Please provide a properly formatted S3 url',
  prefixesRequired: 'At least 1 prefix is required',
  prefixStar: "'*' is not acceptable, leave empty to include all",
  prefixSlash: "Prefix must not start with '/'",
  excludedStart: 'Excluded prefix must start with the included prefix',
  excludedEqual: 'Excluded prefix cannot be the same as the included prefix',
  excludedDoubleStar: "Excluded prefix cannot contain '**'",
  excludedTrailingStar: "Excluded prefix cannot end with '*'",
  logTypesRequired: 'At least 1 log type is required',
  securityFindingAlone: 'AWS.SecurityFindingFormat cannot be combined with other log types',
  crowdstrikeUnknown: 'Crowdstrike.Unknown is deprecated, please use Crowdstrike.FDREvent instead',
  crowdstrikeFdrDisabled: 'Crowdstrike.FDREvent is not enabled yet in this instance, please contact support',
  crowdstrikeFdrShared: 'Crowdstrike.FDREvent cannot share a prefix with other log types',
  headerName: 'Must be a valid HTTP header name',
  username: 'Must not contain a colon or control characters',
  nestedField: 'Nested fields are not supported. Please ensure the field is at the root',
  fieldName: 'Must be a field name without spaces or control characters',
  notCreatable: 'This transport cannot be created yet',
  privateBucket: "This bucket holds Caracal's own data and cannot be read as a log source",
  prefixOutsideSource: "Must start with one of this source's prefixes",
} as const;

export const unknownLogTypeMessage = (name: string) => `Unknown log type: ${truncate(name, 100)}`;
export const tooManyMessage = (max: number) => `Must have at most ${max} items`;

/** "a" or "an", as the title is spoken: a vowel, or an initialism whose first letter is said with one (HTTP). */
const article = (title: string) => (/^([AEIOU]|[FHLMNRSX][A-Z])/.test(title) ? 'an' : 'a');

/** "You already have a {method} source with the same label" (the method defaults to Log Pulling), with a/an. */
export const labelTakenMessage = (transport: LogSourceTransport = 'log-pulling') => {
  const { title } = TRANSPORT_INFO[transport];
  return `You already have ${article(title)} ${title} source with the same label`;
};

export const LIMITS = {
  label: 36,
  /** S3 object keys are at most 1,024 bytes. */
  prefix: 1024,
  prefixes: 100,
  excludedPrefixes: 100,
  logTypes: 100,
  logTypeName: 255,
  arn: 2048,
  arns: 50,
  headerName: 128,
  username: 128,
  secret: 1024,
  /** An HMAC key shorter than this can be guessed from one signed request. */
  hmacKeyMin: 32,
  fieldName: 255,
} as const;

export const SECURITY_FINDING_FORMAT = 'AWS.SecurityFindingFormat';
export const CROWDSTRIKE_UNKNOWN = 'Crowdstrike.Unknown';
export const CROWDSTRIKE_FDR = 'Crowdstrike.FDREvent';

/** What log-type rules need to know about this instance. */
export interface LogTypeContext {
  /** Every log type that exists: managed and custom schema names. */
  readonly knownLogTypes: ReadonlySet<string>;
  /** Whether Crowdstrike FDR parsing is enabled on the instance. */
  readonly crowdstrikeFdrEnabled: boolean;
}

export interface Problem {
  /** The field path, as the forms name fields (`label`, `prefixes[0].logTypes`). */
  readonly path: string;
  readonly message: string;
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
const isText = (value: unknown): value is string => typeof value === 'string';
const blank = (value: unknown) => !isText(value) || value.trim() === '';
const PARTITION = '(aws|aws-cn|aws-us-gov)';
const REGION = '[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\\d';

// ---------- field rules ----------

export function validateLabel(value: unknown): string | undefined {
  if (!isText(value)) return MESSAGES.mustHaveValue;
  const label = value.trim();
  if (label === '') return MESSAGES.required;
  if (label.length > LIMITS.label) return MESSAGES.labelLength;
  if (!/^[A-Za-z0-9 -]+$/.test(label)) return MESSAGES.labelCharacters;
  return undefined;
}

export function validateAccountId(value: unknown): string | undefined {
  if (!isText(value)) return MESSAGES.mustHaveValue;
  if (value === '') return MESSAGES.required;
  if (!/^\d+$/.test(value)) return MESSAGES.digitsOnly;
  if (value.length !== 12) return MESSAGES.accountIdLength;
  return undefined;
}

export function validateBucketName(value: unknown): string | undefined {
  if (!isText(value)) return MESSAGES.mustHaveValue;
  if (value === '') return MESSAGES.required;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value) || value.includes('..')) return MESSAGES.bucketName;
  return undefined;
}

/** An optional field: empty is fine, anything else must match. */
function optionalPattern(value: unknown, pattern: RegExp, message: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (!isText(value)) return MESSAGES.mustHaveValue;
  if (value.length > LIMITS.arn || !pattern.test(value)) return message;
  return undefined;
}

const ROLE_ARN = new RegExp(`^arn:${PARTITION}:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}$`);
const KMS_KEY = new RegExp(`^arn:${PARTITION}:kms:${REGION}:\\d{12}:(key/[A-Za-z0-9-]{1,128}|alias/[\\w/-]{1,256})$`);
const SQS_ARN = new RegExp(`^arn:${PARTITION}:sqs:${REGION}:\\d{12}:[A-Za-z0-9_-]{1,80}(\\.fifo)?$`);
const PRINCIPAL = new RegExp(`^(\\d{12}|arn:${PARTITION}:iam::\\d{12}:(root|(role|user)/[\\w+=,.@/-]{1,512}))$`);
const RESOURCE_ARN = new RegExp(`^arn:${PARTITION}:[a-z0-9-]{1,64}:(${REGION})?:(\\d{12})?:[^\\s]{1,1024}$`);

/** Optional: an IAM role ARN in the aws, aws-cn or aws-us-gov partition. */
export const validateRoleArn = (value: unknown) => optionalPattern(value, ROLE_ARN, MESSAGES.roleArn);
/** Optional: a KMS key (or alias) ARN. */
export const validateKmsKey = (value: unknown) => optionalPattern(value, KMS_KEY, MESSAGES.kmsKey);

export function validateSqsArn(value: unknown): string | undefined {
  if (blank(value)) return MESSAGES.required;
  return optionalPattern(value, SQS_ARN, MESSAGES.sqsArn);
}

export function validatePrincipalArn(value: unknown): string | undefined {
  if (blank(value)) return MESSAGES.required;
  return optionalPattern(value, PRINCIPAL, MESSAGES.principalArn);
}

export function validateSourceArn(value: unknown): string | undefined {
  if (blank(value)) return MESSAGES.required;
  return optionalPattern(value, RESOURCE_ARN, MESSAGES.sourceArn);
}

/** `s3://bucket/optional/prefix` → bucket and prefix; undefined when malformed. */
export function parseS3Url(value: string): { bucket: string; prefix: string } | undefined {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(value.trim());
  if (!match || validateBucketName(match[1])) return undefined;
  return { bucket: match[1], prefix: match[2] ?? '' };
}

export const validateS3Url = (value: unknown): string | undefined =>
  isText(value) && parseS3Url(value) ? undefined : MESSAGES.s3Url;

export function validatePrefix(value: unknown): string | undefined {
  if (!isText(value)) return MESSAGES.mustHaveValue;
  if (value.length > LIMITS.prefix) return tooLong(LIMITS.prefix);
  if (value.trim() === '*') return MESSAGES.prefixStar;
  if (value.startsWith('/')) return MESSAGES.prefixSlash;
  return undefined;
}

export function validateExcludedPrefix(value: unknown, prefix: string): string | undefined {
  if (!isText(value)) return MESSAGES.mustHaveValue;
  if (value === '') return MESSAGES.required;
  if (value.length > LIMITS.prefix) return tooLong(LIMITS.prefix);
  if (value === prefix) return MESSAGES.excludedEqual;
  if (!value.startsWith(prefix)) return MESSAGES.excludedStart;
  if (value.includes('**')) return MESSAGES.excludedDoubleStar;
  if (value.endsWith('*')) return MESSAGES.excludedTrailingStar;
  return undefined;
}

/** The rules of one log-types field: at least one, known, and the specification's special types. */
export function validateLogTypes(value: unknown, context: LogTypeContext): string | undefined {
  if (!Array.isArray(value)) return MESSAGES.mustHaveValue;
  if (value.length === 0) return MESSAGES.logTypesRequired;
  if (value.length > LIMITS.logTypes) return tooManyMessage(LIMITS.logTypes);
  if (!value.every(isText)) return MESSAGES.mustHaveValue;
  if (new Set(value).size !== value.length) return MESSAGES.noDuplicates;
  if (value.includes(CROWDSTRIKE_UNKNOWN)) return MESSAGES.crowdstrikeUnknown;
  const unknown = value.find((name) => !context.knownLogTypes.has(name));
  if (unknown !== undefined) return unknownLogTypeMessage(unknown);
  if (value.includes(SECURITY_FINDING_FORMAT) && value.length > 1) return MESSAGES.securityFindingAlone;
  if (value.includes(CROWDSTRIKE_FDR)) {
    if (!context.crowdstrikeFdrEnabled) return MESSAGES.crowdstrikeFdrDisabled;
    if (value.length > 1) return MESSAGES.crowdstrikeFdrShared;
  }
  return undefined;
}

export function validateHeaderName(value: unknown): string | undefined {
  if (blank(value)) return MESSAGES.required;
  const name = value as string;
  if (name.length > LIMITS.headerName) return tooLong(LIMITS.headerName);
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) ? undefined : MESSAGES.headerName;
}

export function validateUsername(value: unknown): string | undefined {
  if (blank(value)) return MESSAGES.required;
  const name = value as string;
  if (name.length > LIMITS.username) return tooLong(LIMITS.username);
  // eslint-disable-next-line no-control-regex -- control characters are what the rule refuses
  return /[:\u0000-\u001f\u007f]/.test(name) ? MESSAGES.username : undefined;
}

/** A secret the user types: required when `required` (creating, or switching authentication). */
export function validateSecret(value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null || value === '') return required ? MESSAGES.required : undefined;
  if (!isText(value)) return MESSAGES.mustHaveValue;
  if (value.trim() === '') return MESSAGES.required;
  return value.length > LIMITS.secret ? tooLong(LIMITS.secret) : undefined;
}

/** The warning (not an error) of the JSON array enclosing field. */
export const envelopeFieldWarning = (value: unknown): string | undefined =>
  isText(value) && /[.[\]$]/.test(value) ? MESSAGES.nestedField : undefined;

export function validateEnvelopeField(value: unknown): string | undefined {
  if (blank(value)) return MESSAGES.required;
  const name = value as string;
  if (name.length > LIMITS.fieldName) return tooLong(LIMITS.fieldName);
  // eslint-disable-next-line no-control-regex -- control characters are what the rule refuses
  return /[\s\u0000-\u001f\u007f]/.test(name) ? MESSAGES.fieldName : undefined;
}

// ---------- source rules ----------

function listProblems(
  path: string,
  value: unknown,
  max: number,
  rule: (item: unknown) => string | undefined,
  problems: Problem[],
): void {
  if (!Array.isArray(value)) {
    problems.push({ path, message: MESSAGES.mustHaveValue });
    return;
  }
  if (value.length > max) {
    problems.push({ path, message: tooManyMessage(max) });
    return;
  }
  const seen = new Set<unknown>();
  value.forEach((item, i) => {
    const message = rule(item) ?? (seen.has(item) ? MESSAGES.noDuplicates : undefined);
    seen.add(item);
    if (message) problems.push({ path: `${path}[${i}]`, message });
  });
}

function push(problems: Problem[], path: string, message: string | undefined): void {
  if (message) problems.push({ path, message });
}

export interface PrefixInput {
  readonly prefix: string;
  readonly excludedPrefixes: readonly string[];
  readonly logTypes: readonly string[];
}

export function validatePrefixes(value: unknown, context: LogTypeContext): Problem[] {
  const problems: Problem[] = [];
  if (!Array.isArray(value)) return [{ path: 'prefixes', message: MESSAGES.mustHaveValue }];
  if (value.length === 0) return [{ path: 'prefixes', message: MESSAGES.prefixesRequired }];
  if (value.length > LIMITS.prefixes) return [{ path: 'prefixes', message: tooManyMessage(LIMITS.prefixes) }];
  const seen = new Set<string>();
  value.forEach((entry: unknown, i) => {
    const path = `prefixes[${i}]`;
    if (!entry || typeof entry !== 'object') {
      problems.push({ path, message: MESSAGES.mustHaveValue });
      return;
    }
    const { prefix, excludedPrefixes, logTypes } = entry as Record<string, unknown>;
    const prefixMessage = validatePrefix(prefix) ?? (seen.has(prefix as string) ? MESSAGES.noDuplicates : undefined);
    push(problems, `${path}.prefix`, prefixMessage);
    if (isText(prefix)) seen.add(prefix);
    const included = isText(prefix) ? prefix : '';
    listProblems(
      `${path}.excludedPrefixes`,
      excludedPrefixes ?? [],
      LIMITS.excludedPrefixes,
      (e) => validateExcludedPrefix(e, included),
      problems,
    );
    push(problems, `${path}.logTypes`, validateLogTypes(logTypes, context));
  });
  return problems;
}

export interface StreamTypeInput {
  readonly streamType: StreamType;
  /** JsonArray only; empty or absent when the array is the whole document. */
  readonly jsonArrayEnvelopeField?: string | null;
}

export function validateStreamType(input: Partial<StreamTypeInput>): Problem[] {
  const problems: Problem[] = [];
  const streamTypes: readonly string[] = ['Auto', 'Lines', 'JSON', 'JsonArray', 'CloudWatchLogs'];
  if (!isText(input.streamType) || !streamTypes.includes(input.streamType)) {
    problems.push({ path: 'streamType', message: MESSAGES.mustHaveValue });
  }
  const field = input.jsonArrayEnvelopeField;
  if (field !== undefined && field !== null && field !== '') {
    if (input.streamType !== 'JsonArray') problems.push({ path: 'jsonArrayEnvelopeField', message: MESSAGES.mustHaveValue });
    else push(problems, 'jsonArrayEnvelopeField', validateEnvelopeField(field));
  }
  return problems;
}

export interface S3SourceInput extends Partial<StreamTypeInput> {
  readonly label: string;
  readonly bucket: string;
  readonly kmsKey?: string | null;
  readonly roleArn?: string | null;
  readonly prefixes: readonly PrefixInput[];
}

export function validateS3Source(input: S3SourceInput, context: LogTypeContext): Problem[] {
  const problems: Problem[] = [];
  push(problems, 'label', validateLabel(input.label));
  push(problems, 'bucket', validateBucketName(input.bucket));
  push(problems, 'kmsKey', validateKmsKey(input.kmsKey));
  push(problems, 'roleArn', validateRoleArn(input.roleArn));
  problems.push(...validatePrefixes(input.prefixes, context));
  if (input.streamType !== undefined) problems.push(...validateStreamType(input));
  return problems;
}

export interface SqsSourceInput extends Partial<StreamTypeInput> {
  readonly label: string;
  readonly logTypes: readonly string[];
  readonly allowedPrincipalArns: readonly string[];
  readonly allowedSourceArns: readonly string[];
}

export function validateSqsSource(input: SqsSourceInput, context: LogTypeContext): Problem[] {
  const problems: Problem[] = [];
  push(problems, 'label', validateLabel(input.label));
  push(problems, 'logTypes', validateLogTypes(input.logTypes, context));
  listProblems('allowedPrincipalArns', input.allowedPrincipalArns ?? [], LIMITS.arns, validatePrincipalArn, problems);
  listProblems('allowedSourceArns', input.allowedSourceArns ?? [], LIMITS.arns, validateSourceArn, problems);
  if (input.streamType !== undefined) problems.push(...validateStreamType(input));
  return problems;
}

export interface HttpSourceInput extends Partial<StreamTypeInput> {
  readonly label: string;
  readonly logTypes: readonly string[];
  readonly authType: HttpAuthType;
  readonly username?: string | null;
  readonly headerName?: string | null;
  readonly hmacAlgorithm?: string | null;
  readonly signatureHeader?: string | null;
  /** The password, token, shared secret or HMAC key; on update, empty keeps the stored one. */
  readonly secret?: string | null;
}

/** `secretRequired`: creating, or changing the authentication type of an existing source. */
export function validateHttpSource(input: HttpSourceInput, context: LogTypeContext, secretRequired: boolean): Problem[] {
  const problems: Problem[] = [];
  push(problems, 'label', validateLabel(input.label));
  push(problems, 'logTypes', validateLogTypes(input.logTypes, context));
  const authTypes: readonly string[] = ['None', 'Basic', 'Bearer', 'HMAC', 'SharedSecret'];
  if (!isText(input.authType) || !authTypes.includes(input.authType)) {
    problems.push({ path: 'authType', message: MESSAGES.mustHaveValue });
    return problems;
  }
  if (input.authType === 'Basic') push(problems, 'username', validateUsername(input.username));
  if (input.authType === 'SharedSecret') push(problems, 'headerName', validateHeaderName(input.headerName));
  if (input.authType === 'HMAC') {
    push(problems, 'signatureHeader', validateHeaderName(input.signatureHeader));
    if (input.hmacAlgorithm !== 'sha256' && input.hmacAlgorithm !== 'sha512') {
      problems.push({ path: 'hmacAlgorithm', message: MESSAGES.mustHaveValue });
    }
  }
  if (input.authType !== 'None') {
    const shortKey =
      input.authType === 'HMAC' && isText(input.secret) && input.secret !== '' && input.secret.length < LIMITS.hmacKeyMin;
    push(
      problems,
      'secret',
      validateSecret(input.secret, secretRequired) ?? (shortKey ? tooShort(LIMITS.hmacKeyMin) : undefined),
    );
  }
  if (input.streamType !== undefined) problems.push(...validateStreamType(input));
  return problems;
}
