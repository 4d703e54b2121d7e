// Creating, changing and deleting log sources, one pair of mutations per creatable transport.
import {
  MASKED_SECRET,
  type HmacAlgorithm,
  type HttpAuthType,
  type HttpLogSource,
  type LogSource,
  type S3LogSource,
  type SqsLogSource,
  type StreamType,
} from '../../../../core/log-sources/types';
import {
  MESSAGES,
  labelTakenMessage,
  validateHttpSource,
  validateS3Source,
  validateSqsSource,
  validateStreamType,
} from '../../../../core/log-sources/validation';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth/caller';
import { ApiError } from '../../../lib/errors';
import { runHealthChecks } from '../../../lib/log-sources/health';
import { hashSecret } from '../../../lib/log-sources/http-auth';
import { logTypeContext } from '../../../lib/log-sources/log-types';
import {
  createSource,
  deleteSource,
  getSource,
  LabelTakenError,
  newSourceId,
  replaceSource,
  type StoredHttpSecret,
  type StoredLogSource,
} from '../../../lib/log-sources/repository';
import { isPrivateBucket } from '../../../lib/log-sources/source-access';
import { createSourceQueue, deleteSourceQueue, setSourceQueueAccess } from '../../../lib/log-sources/source-queue';
import { connectSourceQueue, disconnectSourceQueue } from '../../../lib/pipeline/source-queue-consumer';
import { inputOf, optionalText, refuse, streamTypeOf, text, textList, type Input } from './input';
import { healthSummary, toApiSource } from './shape';

type WithInput = { input?: unknown };
type WithIdAndInput = { id?: unknown; input?: unknown };

const actor = (caller: Caller) => caller.email || caller.username;

/** How long a save waits for the source's first checks; slower ones are left to the scheduled run. */
const SAVE_CHECKS_MS = 5000;

/** Checks a saved source at once (no alerts: those stay with the scheduled run), then answers it. */
async function answer(source: StoredLogSource) {
  const checks = runHealthChecks(source, new Date()).catch((error: unknown) => {
    console.error(`health checks of log source ${source.id} failed to run`, error);
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([checks, new Promise((resolve) => (timer = setTimeout(resolve, SAVE_CHECKS_MS)))]);
  clearTimeout(timer);
  return toApiSource(source, await healthSummary(source.id));
}

/** Runs a write, turning a taken label into the specification's message. */
async function saving<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof LabelTakenError) throw new ApiError('AlreadyExists', labelTakenMessage(error.transport));
    if ((error as Error).name === 'ConditionalCheckFailedException') {
      throw new ApiError('RevisionConflict', 'The log source changed while you edited it; reload and try again');
    }
    throw error;
  }
}

async function existing<T extends LogSource['transport']>(id: unknown, transport?: T) {
  const source = typeof id === 'string' ? await getSource(id) : null;
  if (!source || (transport && source.transport !== transport)) throw new ApiError('NotFound', `No log source ${String(id)}`);
  return source as StoredLogSource & Extract<LogSource, { transport: T }>;
}

function stamps(caller: Caller, previous?: LogSource) {
  const now = new Date().toISOString();
  return {
    createdAt: previous?.createdAt ?? now,
    createdBy: previous?.createdBy ?? actor(caller),
    updatedAt: now,
    updatedBy: actor(caller),
  };
}

const enabledOf = (input: Input, previous?: LogSource) =>
  typeof input.enabled === 'boolean' ? input.enabled : (previous?.enabled ?? true);

const streamFields = (stream: { streamType: StreamType; jsonArrayEnvelopeField?: string }) =>
  stream.jsonArrayEnvelopeField ? stream : { streamType: stream.streamType };

// ---------- S3 ----------

async function s3Source(input: Input, caller: Caller, previous?: S3LogSource): Promise<S3LogSource> {
  const prefixes = Array.isArray(input.prefixes)
    ? input.prefixes.map((p: unknown) => {
        const entry = (p ?? {}) as Input;
        return {
          prefix: typeof entry.prefix === 'string' ? entry.prefix : (entry.prefix as string),
          excludedPrefixes: textList(entry.excludedPrefixes ?? []),
          logTypes: textList(entry.logTypes),
        };
      })
    : (input.prefixes as []);
  const fields = {
    label: text(input.label),
    bucket: text(input.bucket),
    kmsKey: optionalText(input.kmsKey),
    roleArn: optionalText(input.roleArn),
    prefixes,
  };
  const stream = streamTypeOf(input, previous);
  const current = previous?.s3.prefixes.flatMap((p) => p.logTypes) ?? [];
  const problems = validateS3Source({ ...fields, ...stream }, await logTypeContext(current));
  if (!problems.some((p) => p.path === 'bucket') && isPrivateBucket(fields.bucket)) {
    problems.push({ path: 'bucket', message: MESSAGES.privateBucket });
  }
  refuse(problems);
  return {
    id: previous?.id ?? newSourceId(),
    transport: 'aws-s3',
    label: fields.label,
    logTypes: [...new Set(prefixes.flatMap((p) => p.logTypes))],
    ...streamFields(stream as { streamType: StreamType; jsonArrayEnvelopeField?: string }),
    enabled: enabledOf(input, previous),
    ...stamps(caller, previous),
    s3: {
      bucket: fields.bucket,
      ...(fields.kmsKey ? { kmsKey: fields.kmsKey } : {}),
      ...(fields.roleArn ? { roleArn: fields.roleArn } : {}),
      prefixes,
    },
  };
}

async function createS3LogSource(event: AppSyncResolverEvent<WithInput>, caller: Caller) {
  const source = await s3Source(inputOf(event.arguments.input), caller);
  return answer(await saving(() => createSource(source)));
}

async function updateS3LogSource(event: AppSyncResolverEvent<WithIdAndInput>, caller: Caller) {
  const previous = await existing(event.arguments.id, 'aws-s3');
  const next = await s3Source(inputOf(event.arguments.input), caller, previous);
  return answer(await saving(() => replaceSource(previous, next)));
}

// ---------- SQS ----------

async function sqsFields(input: Input, previous?: SqsLogSource) {
  const fields = {
    label: text(input.label),
    logTypes: textList(input.logTypes),
    allowedPrincipalArns: textList(input.allowedPrincipalArns ?? []),
    allowedSourceArns: textList(input.allowedSourceArns ?? []),
  };
  const stream = streamTypeOf(input, previous);
  refuse(validateSqsSource({ ...fields, ...stream }, await logTypeContext(previous?.logTypes)));
  return { fields, stream: stream as { streamType: StreamType; jsonArrayEnvelopeField?: string } };
}

async function createSqsLogSource(event: AppSyncResolverEvent<WithInput>, caller: Caller) {
  const input = inputOf(event.arguments.input);
  const { fields, stream } = await sqsFields(input);
  const id = newSourceId();
  const access = { allowedPrincipalArns: fields.allowedPrincipalArns, allowedSourceArns: fields.allowedSourceArns };
  const queue = await createSourceQueue(id, access);
  await connectSourceQueue(queue.queueArn);
  const source: SqsLogSource = {
    id,
    transport: 'aws-sqs',
    label: fields.label,
    logTypes: fields.logTypes,
    ...streamFields(stream),
    enabled: enabledOf(input),
    ...stamps(caller),
    sqs: { ...queue, ...access },
  };
  try {
    return answer(await saving(() => createSource(source)));
  } catch (error) {
    await disconnectSourceQueue(queue.queueArn);
    await deleteSourceQueue(queue.queueUrl);
    throw error;
  }
}

async function updateSqsLogSource(event: AppSyncResolverEvent<WithIdAndInput>, caller: Caller) {
  const previous = await existing(event.arguments.id, 'aws-sqs');
  const input = inputOf(event.arguments.input);
  const { fields, stream } = await sqsFields(input, previous);
  const access = { allowedPrincipalArns: fields.allowedPrincipalArns, allowedSourceArns: fields.allowedSourceArns };
  const next: SqsLogSource = {
    ...previous,
    label: fields.label,
    logTypes: fields.logTypes,
    jsonArrayEnvelopeField: undefined,
    ...streamFields(stream),
    enabled: enabledOf(input, previous),
    ...stamps(caller, previous),
    sqs: { ...previous.sqs, ...access },
  };
  const saved = await saving(() => replaceSource(previous, next));
  await setSourceQueueAccess(previous.sqs.queueUrl, previous.sqs.queueArn, access);
  return answer(saved);
}

// ---------- HTTP ----------

/** A typed secret, or undefined to keep the stored one (empty, or the mask sent back unchanged). */
const typedSecret = (value: unknown) => {
  const secret = typeof value === 'string' && value !== MASKED_SECRET ? value : undefined;
  return secret === '' ? undefined : secret;
};

async function httpSource(input: Input, caller: Caller, previous?: StoredLogSource & HttpLogSource): Promise<StoredLogSource> {
  const authType = input.authType as HttpAuthType;
  const secret = typedSecret(input.secret);
  const fields = {
    label: text(input.label),
    logTypes: textList(input.logTypes),
    authType,
    username: authType === 'Basic' ? optionalText(input.username) : undefined,
    headerName: authType === 'SharedSecret' ? optionalText(input.headerName) : undefined,
    hmacAlgorithm: authType === 'HMAC' ? (optionalText(input.hmacAlgorithm) as HmacAlgorithm | undefined) : undefined,
    signatureHeader: authType === 'HMAC' ? optionalText(input.signatureHeader) : undefined,
  };
  const stream = streamTypeOf(input, previous);
  const secretRequired = !previous || previous.http.authType !== authType || !previous.secret;
  refuse(validateHttpSource({ ...fields, ...stream, secret }, await logTypeContext(previous?.logTypes), secretRequired));
  let stored: StoredHttpSecret | undefined;
  if (authType === 'None') stored = undefined;
  else if (secret === undefined) stored = previous?.secret;
  else stored = authType === 'HMAC' ? { kind: 'hmac', key: secret } : hashSecret(secret);
  const http: HttpLogSource['http'] = {
    authType,
    ...(fields.username ? { username: fields.username } : {}),
    ...(fields.headerName ? { headerName: fields.headerName } : {}),
    ...(fields.hmacAlgorithm ? { hmacAlgorithm: fields.hmacAlgorithm } : {}),
    ...(fields.signatureHeader ? { signatureHeader: fields.signatureHeader } : {}),
    endpointUrl: null,
  };
  return {
    id: previous?.id ?? newSourceId(),
    transport: 'http-ingest',
    label: fields.label,
    logTypes: fields.logTypes,
    ...streamFields(stream as { streamType: StreamType; jsonArrayEnvelopeField?: string }),
    enabled: enabledOf(input, previous),
    ...stamps(caller, previous),
    http,
    ...(stored ? { secret: stored } : {}),
  };
}

async function createHttpLogSource(event: AppSyncResolverEvent<WithInput>, caller: Caller) {
  const source = await httpSource(inputOf(event.arguments.input), caller);
  return answer(await saving(() => createSource(source)));
}

async function updateHttpLogSource(event: AppSyncResolverEvent<WithIdAndInput>, caller: Caller) {
  const previous = await existing(event.arguments.id, 'http-ingest');
  const next = await httpSource(inputOf(event.arguments.input), caller, previous);
  return answer(await saving(() => replaceSource(previous, next)));
}

// ---------- any transport ----------

async function deleteLogSource(event: AppSyncResolverEvent<{ id?: unknown }>) {
  const source = await existing(event.arguments.id);
  await deleteSource(source);
  if (source.transport === 'aws-sqs') {
    await disconnectSourceQueue(source.sqs.queueArn);
    await deleteSourceQueue(source.sqs.queueUrl);
  }
  return { id: source.id };
}

async function setLogStreamType(event: AppSyncResolverEvent<WithInput>, caller: Caller) {
  const input = inputOf(event.arguments.input);
  const previous = await existing(input.sourceId);
  const stream = {
    streamType: input.streamType as StreamType,
    jsonArrayEnvelopeField: optionalText(input.jsonArrayEnvelopeField),
  };
  refuse(validateStreamType(stream));
  // The enclosing field goes with the stream type: absent unless the new type is a JSON array with one.
  const next = {
    ...previous,
    jsonArrayEnvelopeField: undefined,
    ...streamFields(stream),
    ...stamps(caller, previous),
  } as StoredLogSource;
  return answer(await saving(() => replaceSource(previous, next)));
}

export const sourceMutations = {
  'Mutation.createS3LogSource': createS3LogSource,
  'Mutation.updateS3LogSource': updateS3LogSource,
  'Mutation.createSqsLogSource': createSqsLogSource,
  'Mutation.updateSqsLogSource': updateSqsLogSource,
  'Mutation.createHttpLogSource': createHttpLogSource,
  'Mutation.updateHttpLogSource': updateHttpLogSource,
  'Mutation.deleteLogSource': deleteLogSource,
  'Mutation.setLogStreamType': setLogStreamType,
};
