// The log source form's values, their rules (core's, as the server checks them) and the API inputs they make.
import type { CreatableTransport, HmacAlgorithm, HttpAuthType } from '../../../../core/log-sources/types';
import {
  labelTakenMessage,
  validateHttpSource,
  validateS3Source,
  validateSqsSource,
  type LogTypeContext,
  type Problem,
} from '../../../../core/log-sources/validation';
import { coreProblems } from '../../lib/forms/coreRule';
import type { HttpLogSourceInput, LogSourceFieldsFragment, S3LogSourceInput, SqsLogSourceInput } from '../../lib/graphql/types';

export interface PrefixValues {
  prefix: string;
  excludedPrefixes: string[];
  logTypes: string[];
}

export interface LogSourceFormValues {
  transport: CreatableTransport;
  label: string;
  /** A disabled source keeps its settings; the pipeline skips its data and health checks skip it. */
  enabled: boolean;
  bucket: string;
  kmsKey: string;
  roleArn: string;
  prefixes: PrefixValues[];
  logTypes: string[];
  allowedPrincipalArns: string[];
  allowedSourceArns: string[];
  authType: HttpAuthType;
  username: string;
  headerName: string;
  hmacAlgorithm: HmacAlgorithm;
  signatureHeader: string;
  /** Write-only: empty on edit keeps the stored secret. */
  secret: string;
}

export const emptyPrefix = (): PrefixValues => ({ prefix: '', excludedPrefixes: [], logTypes: [] });

export function initialValues(transport: CreatableTransport, source?: LogSourceFieldsFragment): LogSourceFormValues {
  return {
    transport,
    label: source?.label ?? '',
    enabled: source?.enabled ?? true,
    bucket: source?.s3?.bucket ?? '',
    kmsKey: source?.s3?.kmsKey ?? '',
    roleArn: source?.s3?.roleArn ?? '',
    prefixes: source?.s3?.prefixes.map((p) => ({
      ...p,
      excludedPrefixes: [...p.excludedPrefixes],
      logTypes: [...p.logTypes],
    })) ?? [emptyPrefix()],
    logTypes: source && !source.s3 ? [...source.logTypes] : [],
    allowedPrincipalArns: [...(source?.sqs?.allowedPrincipalArns ?? [])],
    allowedSourceArns: [...(source?.sqs?.allowedSourceArns ?? [])],
    authType: source?.http?.authType ?? 'Bearer',
    username: source?.http?.username ?? '',
    headerName: source?.http?.headerName ?? '',
    hmacAlgorithm: source?.http?.hmacAlgorithm ?? 'sha256',
    signatureHeader: source?.http?.signatureHeader ?? '',
    secret: '',
  };
}

/** What the form offers and checks against, as the API tells it. */
export interface LogSourceChoices {
  /** The log types a source may read, managed and custom. */
  readonly logTypes: readonly { readonly name: string; readonly managed: boolean }[];
  readonly crowdstrikeFdrEnabled: boolean;
  /** Labels (lowercased) of the other sources of the same transport. */
  readonly takenLabels: ReadonlySet<string>;
}

export interface FormContext extends LogTypeContext {
  /** Labels (lowercased) of the other sources of the same transport. */
  readonly takenLabels: ReadonlySet<string>;
  /** Editing a source whose stored secret is kept when the field stays empty (same authentication type). */
  readonly storedSecretFor?: HttpAuthType;
}

/** The rules' context: the log types known (those offered, and those the edited source already reads). */
export function formContext(choices: LogSourceChoices, source?: LogSourceFieldsFragment): FormContext {
  return {
    knownLogTypes: new Set([...choices.logTypes.map((t) => t.name), ...(source?.logTypes ?? [])]),
    crowdstrikeFdrEnabled: choices.crowdstrikeFdrEnabled,
    takenLabels: choices.takenLabels,
    storedSecretFor: source?.http?.secret ? source.http.authType : undefined,
  };
}

export function problemsOf(values: LogSourceFormValues, context: FormContext): Problem[] {
  const problems =
    values.transport === 'aws-s3'
      ? validateS3Source(values, context)
      : values.transport === 'aws-sqs'
        ? validateSqsSource(values, context)
        : validateHttpSource(values, context, context.storedSecretFor !== values.authType);
  if (!problems.some((p) => p.path === 'label') && context.takenLabels.has(values.label.trim().toLowerCase())) {
    problems.unshift({ path: 'label', message: labelTakenMessage(values.transport) });
  }
  return problems;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Formik hands yup empty strings as undefined: give the rules back the text the user typed (none). */
function asTyped(values: LogSourceFormValues): LogSourceFormValues {
  return {
    ...values,
    label: text(values.label),
    bucket: text(values.bucket),
    kmsKey: text(values.kmsKey),
    roleArn: text(values.roleArn),
    username: text(values.username),
    headerName: text(values.headerName),
    signatureHeader: text(values.signatureHeader),
    secret: text(values.secret),
    prefixes: (values.prefixes ?? []).map((p) => ({ ...p, prefix: text(p?.prefix) })),
  };
}

/** The form's yup schema: core's rules over the whole form, each problem at its field path. */
export function logSourceSchema(context: FormContext) {
  return coreProblems<LogSourceFormValues>((values) => problemsOf(asTyped(values), context));
}

const orNull = (value: string) => value.trim() || null;

export function s3Input(values: LogSourceFormValues): S3LogSourceInput {
  return {
    label: values.label.trim(),
    enabled: values.enabled,
    bucket: values.bucket.trim(),
    kmsKey: orNull(values.kmsKey),
    roleArn: orNull(values.roleArn),
    prefixes: values.prefixes.map((p) => ({ prefix: p.prefix, excludedPrefixes: p.excludedPrefixes, logTypes: p.logTypes })),
  };
}

export function sqsInput(values: LogSourceFormValues): SqsLogSourceInput {
  return {
    label: values.label.trim(),
    enabled: values.enabled,
    logTypes: values.logTypes,
    allowedPrincipalArns: values.allowedPrincipalArns,
    allowedSourceArns: values.allowedSourceArns,
  };
}

export function httpInput(values: LogSourceFormValues): HttpLogSourceInput {
  const { authType } = values;
  return {
    label: values.label.trim(),
    enabled: values.enabled,
    logTypes: values.logTypes,
    authType,
    username: authType === 'Basic' ? orNull(values.username) : null,
    headerName: authType === 'SharedSecret' ? orNull(values.headerName) : null,
    hmacAlgorithm: authType === 'HMAC' ? values.hmacAlgorithm : null,
    signatureHeader: authType === 'HMAC' ? orNull(values.signatureHeader) : null,
    secret: authType === 'None' ? null : values.secret || null,
  };
}
