import { describe, expect, it } from 'vitest';
import {
  LIMITS,
  MESSAGES,
  envelopeFieldWarning,
  labelTakenMessage,
  parseS3Url,
  unknownLogTypeMessage,
  validateAccountId,
  validateBucketName,
  validateExcludedPrefix,
  validateHttpSource,
  validateKmsKey,
  validateLabel,
  validateLogTypes,
  validatePrefix,
  validatePrefixes,
  validatePrincipalArn,
  validateRoleArn,
  validateS3Source,
  validateS3Url,
  validateSourceArn,
  validateSqsArn,
  validateSqsSource,
  validateStreamType,
  tooManyMessage,
  type LogTypeContext,
} from '../../../core/log-sources/validation';

const context: LogTypeContext = {
  knownLogTypes: new Set(['AWS.CloudTrail', 'AWS.VPCFlow', 'AWS.SecurityFindingFormat', 'Crowdstrike.FDREvent', 'Custom.App']),
  crowdstrikeFdrEnabled: true,
};
const INJECTIONS = ["'; DROP TABLE sources; --", '<script>alert(1)</script>', '${jndi:ldap://x}', '../../etc/passwd', 'a\u0000b'];

describe('label', () => {
  it('is required', () => {
    expect(validateLabel('')).toBe(MESSAGES.required);
    expect(validateLabel('   ')).toBe(MESSAGES.required);
    expect(validateLabel(undefined)).toBe(MESSAGES.mustHaveValue);
    expect(validateLabel(42)).toBe(MESSAGES.mustHaveValue);
  });
  it('takes alphanumeric characters, dashes and spaces only', () => {
    expect(validateLabel('Prod CloudTrail-2')).toBeUndefined();
    for (const bad of [...INJECTIONS, 'a_b', 'é', 'a.b']) expect(validateLabel(bad)).toBe(MESSAGES.labelCharacters);
  });
  it('is at most 36 characters, huge input included', () => {
    expect(validateLabel('a'.repeat(36))).toBeUndefined();
    expect(validateLabel('a'.repeat(37))).toBe(MESSAGES.labelLength);
    expect(validateLabel('a'.repeat(5_000_000))).toBe(MESSAGES.labelLength);
  });
  it('names the transport when taken, with the right article', () => {
    expect(labelTakenMessage('aws-s3')).toBe('You already have an AWS S3 source with the same label');
    expect(labelTakenMessage('aws-sqs')).toBe('You already have an AWS SQS source with the same label');
    expect(labelTakenMessage('http-ingest')).toBe('You already have an HTTP source with the same label');
    expect(labelTakenMessage('azure-eventhub')).toBe('You already have an Azure Event Hub source with the same label');
    expect(labelTakenMessage('gcp-gcs')).toBe('You already have a Google Cloud Storage source with the same label');
    expect(labelTakenMessage()).toBe('You already have a Log Pulling source with the same label');
  });
});

describe('identifiers', () => {
  it('account ids are exactly 12 digits', () => {
    expect(validateAccountId('123456789012')).toBeUndefined();
    expect(validateAccountId('12345678901')).toBe(MESSAGES.accountIdLength);
    expect(validateAccountId('1234567890123')).toBe(MESSAGES.accountIdLength);
    expect(validateAccountId('12345678901a')).toBe(MESSAGES.digitsOnly);
    expect(validateAccountId('')).toBe(MESSAGES.required);
    expect(validateAccountId(123456789012)).toBe(MESSAGES.mustHaveValue);
  });
  it('bucket names are 3 to 63 lowercase letters, digits, hyphens and dots', () => {
    for (const ok of ['abc', 'my-logs.bucket', 'a'.repeat(63)]) expect(validateBucketName(ok)).toBeUndefined();
    for (const bad of ['ab', 'a'.repeat(64), 'My-Bucket', 'under_score', '-start', 'end-', 'a..b', ...INJECTIONS]) {
      expect(validateBucketName(bad)).toBe(MESSAGES.bucketName);
    }
    expect(validateBucketName('')).toBe(MESSAGES.required);
  });
  it('role ARNs are in the aws, aws-cn or aws-us-gov partition with a 12-digit account', () => {
    for (const partition of ['aws', 'aws-cn', 'aws-us-gov']) {
      expect(validateRoleArn(`arn:${partition}:iam::123456789012:role/path/Reader`)).toBeUndefined();
    }
    expect(validateRoleArn('')).toBeUndefined();
    expect(validateRoleArn(undefined)).toBeUndefined();
    for (const bad of [
      'arn:aws-xx:iam::123456789012:role/R',
      'arn:aws:iam::12345678901:role/R',
      'arn:aws:iam::123456789012:user/R',
      ...INJECTIONS,
    ]) {
      expect(validateRoleArn(bad)).toBe(MESSAGES.roleArn);
    }
    expect(validateRoleArn(`arn:aws:iam::123456789012:role/${'a'.repeat(3000)}`)).toBe(MESSAGES.roleArn);
  });
  it('KMS keys are key or alias ARNs', () => {
    expect(validateKmsKey('arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab')).toBeUndefined();
    expect(validateKmsKey('arn:aws:kms:eu-west-2:123456789012:alias/logs')).toBeUndefined();
    expect(validateKmsKey('1234abcd')).toBe(MESSAGES.kmsKey);
  });
  it('SQS ARNs have the queue form', () => {
    expect(validateSqsArn('arn:aws:sqs:us-east-1:123456789012:queue-1')).toBeUndefined();
    expect(validateSqsArn('arn:aws-us-gov:sqs:us-gov-west-1:123456789012:q.fifo')).toBeUndefined();
    expect(validateSqsArn('arn:aws:sns:us-east-1:123456789012:topic')).toBe(MESSAGES.sqsArn);
    expect(validateSqsArn('')).toBe(MESSAGES.required);
  });
  it('allowed principals are account ids or IAM ARNs; allowed sources are ARNs', () => {
    expect(validatePrincipalArn('123456789012')).toBeUndefined();
    expect(validatePrincipalArn('arn:aws:iam::123456789012:root')).toBeUndefined();
    expect(validatePrincipalArn('arn:aws:iam::123456789012:role/Sender')).toBeUndefined();
    expect(validatePrincipalArn('*')).toBe(MESSAGES.principalArn);
    expect(validateSourceArn('arn:aws:s3:::my-bucket')).toBeUndefined();
    expect(validateSourceArn('arn:aws:sns:us-east-1:123456789012:topic')).toBeUndefined();
    expect(validateSourceArn('not an arn')).toBe(MESSAGES.sourceArn);
  });
  it('S3 urls', () => {
    expect(parseS3Url('s3://my-bucket/logs/')).toEqual({ bucket: 'my-bucket', prefix: 'logs/' });
    expect(validateS3Url('s3://my-bucket')).toBeUndefined();
    expect(validateS3Url('https://my-bucket.s3.amazonaws.com')).toBe(MESSAGES.s3Url);
    expect(validateS3Url('s3://Bad_Bucket/x')).toBe(MESSAGES.s3Url);
  });
});

describe('prefixes', () => {
  it("refuses '*' and a leading '/'", () => {
    expect(validatePrefix('')).toBeUndefined();
    expect(validatePrefix('logs/')).toBeUndefined();
    expect(validatePrefix('*')).toBe(MESSAGES.prefixStar);
    expect(validatePrefix('/logs')).toBe(MESSAGES.prefixSlash);
    expect(validatePrefix('x'.repeat(LIMITS.prefix + 1))).toBe(`Must be at most ${LIMITS.prefix} characters`);
  });
  it('needs at least one, and no duplicates', () => {
    expect(validatePrefixes([], context)).toEqual([{ path: 'prefixes', message: MESSAGES.prefixesRequired }]);
    const problems = validatePrefixes(
      [
        { prefix: 'a/', excludedPrefixes: [], logTypes: ['AWS.CloudTrail'] },
        { prefix: 'a/', excludedPrefixes: [], logTypes: ['AWS.CloudTrail'] },
      ],
      context,
    );
    expect(problems).toEqual([{ path: 'prefixes[1].prefix', message: MESSAGES.noDuplicates }]);
  });
  it('excluded prefixes start with the included prefix, differ from it, have no ** and no trailing *', () => {
    expect(validateExcludedPrefix('logs/digest/', 'logs/')).toBeUndefined();
    expect(validateExcludedPrefix('logs/*/digest/', 'logs/')).toBeUndefined();
    expect(validateExcludedPrefix('other/', 'logs/')).toBe(MESSAGES.excludedStart);
    expect(validateExcludedPrefix('logs/', 'logs/')).toBe(MESSAGES.excludedEqual);
    expect(validateExcludedPrefix('logs/**/x', 'logs/')).toBe(MESSAGES.excludedDoubleStar);
    expect(validateExcludedPrefix('logs/x*', 'logs/')).toBe(MESSAGES.excludedTrailingStar);
    expect(validateExcludedPrefix('', 'logs/')).toBe(MESSAGES.required);
  });
  it('excluded prefixes are unique, and reported at their path', () => {
    const problems = validatePrefixes(
      [{ prefix: 'l/', excludedPrefixes: ['l/a', 'l/a', 'x'], logTypes: ['AWS.VPCFlow'] }],
      context,
    );
    expect(problems).toEqual([
      { path: 'prefixes[0].excludedPrefixes[1]', message: MESSAGES.noDuplicates },
      { path: 'prefixes[0].excludedPrefixes[2]', message: MESSAGES.excludedStart },
    ]);
  });
  it('bounds huge lists with a clear error', () => {
    const many = Array.from({ length: LIMITS.prefixes + 1 }, (_, i) => ({
      prefix: `p${i}/`,
      excludedPrefixes: [],
      logTypes: ['AWS.VPCFlow'],
    }));
    expect(validatePrefixes(many, context)).toEqual([{ path: 'prefixes', message: tooManyMessage(LIMITS.prefixes) }]);
    expect(validatePrefixes('nope', context)).toEqual([{ path: 'prefixes', message: MESSAGES.mustHaveValue }]);
    expect(validatePrefixes([null], context)).toEqual([{ path: 'prefixes[0]', message: MESSAGES.mustHaveValue }]);
  });
});

describe('log types', () => {
  it('needs at least 1', () => {
    expect(validateLogTypes([], context)).toBe(MESSAGES.logTypesRequired);
    expect(validateLogTypes(undefined, context)).toBe(MESSAGES.mustHaveValue);
  });
  it('must exist (managed or custom)', () => {
    expect(validateLogTypes(['AWS.CloudTrail', 'Custom.App'], context)).toBeUndefined();
    expect(validateLogTypes(['Nope.Type'], context)).toBe(unknownLogTypeMessage('Nope.Type'));
    expect(validateLogTypes(['<img src=x onerror=alert(1)>'], context)).toBe('Unknown log type: <img src=x onerror=alert(1)>');
    expect(validateLogTypes(['x'.repeat(10_000)], context)).toBe(`Unknown log type: ${'x'.repeat(100)}…`);
  });
  it('takes no duplicates', () => {
    expect(validateLogTypes(['AWS.CloudTrail', 'AWS.CloudTrail'], context)).toBe(MESSAGES.noDuplicates);
  });
  it('keeps AWS.SecurityFindingFormat alone', () => {
    expect(validateLogTypes(['AWS.SecurityFindingFormat'], context)).toBeUndefined();
    expect(validateLogTypes(['AWS.SecurityFindingFormat', 'AWS.CloudTrail'], context)).toBe(MESSAGES.securityFindingAlone);
  });
  it('refuses the deprecated Crowdstrike.Unknown in favour of Crowdstrike.FDREvent', () => {
    expect(validateLogTypes(['Crowdstrike.Unknown'], context)).toBe(MESSAGES.crowdstrikeUnknown);
  });
  it('needs Crowdstrike.FDREvent enabled, alone on its prefix', () => {
    expect(validateLogTypes(['Crowdstrike.FDREvent'], context)).toBeUndefined();
    expect(validateLogTypes(['Crowdstrike.FDREvent'], { ...context, crowdstrikeFdrEnabled: false })).toBe(
      'Crowdstrike.FDREvent is not enabled yet in this instance, please contact support',
    );
    expect(validateLogTypes(['Crowdstrike.FDREvent', 'AWS.CloudTrail'], context)).toBe(MESSAGES.crowdstrikeFdrShared);
  });
});

describe('stream type', () => {
  it('takes the five options', () => {
    for (const streamType of ['Auto', 'Lines', 'JSON', 'JsonArray', 'CloudWatchLogs'] as const) {
      expect(validateStreamType({ streamType })).toEqual([]);
    }
    expect(validateStreamType({ streamType: 'XML' as never })).toEqual([{ path: 'streamType', message: MESSAGES.mustHaveValue }]);
  });
  it('takes an enclosing field only for JSON arrays', () => {
    expect(validateStreamType({ streamType: 'JsonArray', jsonArrayEnvelopeField: 'Records' })).toEqual([]);
    expect(validateStreamType({ streamType: 'JSON', jsonArrayEnvelopeField: 'Records' })).toHaveLength(1);
    expect(validateStreamType({ streamType: 'JsonArray', jsonArrayEnvelopeField: 'a b' })).toEqual([
      { path: 'jsonArrayEnvelopeField', message: MESSAGES.fieldName },
    ]);
  });
  it('warns about nested enclosing fields', () => {
    for (const nested of ['a.b', 'a[0]', '$.a']) {
      expect(envelopeFieldWarning(nested)).toBe('Nested fields are not supported. Please ensure the field is at the root');
    }
    expect(envelopeFieldWarning('Records')).toBeUndefined();
  });
});

describe('sources', () => {
  it('an S3 source reports every field with its path', () => {
    const problems = validateS3Source(
      { label: '', bucket: 'BAD', roleArn: 'x', kmsKey: 'y', prefixes: [{ prefix: '*', excludedPrefixes: [], logTypes: [] }] },
      context,
    );
    expect(problems).toEqual([
      { path: 'label', message: MESSAGES.required },
      { path: 'bucket', message: MESSAGES.bucketName },
      { path: 'kmsKey', message: MESSAGES.kmsKey },
      { path: 'roleArn', message: MESSAGES.roleArn },
      { path: 'prefixes[0].prefix', message: MESSAGES.prefixStar },
      { path: 'prefixes[0].logTypes', message: MESSAGES.logTypesRequired },
    ]);
  });
  it('an SQS source checks its principals and source ARNs', () => {
    const problems = validateSqsSource(
      {
        label: 'q',
        logTypes: ['AWS.CloudTrail'],
        allowedPrincipalArns: ['123456789012', '123456789012', 'x'],
        allowedSourceArns: ['y'],
      },
      context,
    );
    expect(problems).toEqual([
      { path: 'allowedPrincipalArns[1]', message: MESSAGES.noDuplicates },
      { path: 'allowedPrincipalArns[2]', message: MESSAGES.principalArn },
      { path: 'allowedSourceArns[0]', message: MESSAGES.sourceArn },
    ]);
  });
  it('an HTTP source needs the settings and secret of its authentication', () => {
    const base = { label: 'h', logTypes: ['Custom.App'] };
    expect(validateHttpSource({ ...base, authType: 'None' }, context, true)).toEqual([]);
    expect(validateHttpSource({ ...base, authType: 'Bearer' }, context, true)).toEqual([
      { path: 'secret', message: MESSAGES.required },
    ]);
    expect(validateHttpSource({ ...base, authType: 'Bearer' }, context, false)).toEqual([]);
    expect(validateHttpSource({ ...base, authType: 'Basic', username: 'a:b', secret: 'pw' }, context, true)).toEqual([
      { path: 'username', message: MESSAGES.username },
    ]);
    expect(validateHttpSource({ ...base, authType: 'SharedSecret', headerName: 'x token', secret: 's' }, context, true)).toEqual([
      { path: 'headerName', message: MESSAGES.headerName },
    ]);
    expect(
      validateHttpSource(
        { ...base, authType: 'HMAC', signatureHeader: 'X-Sig', hmacAlgorithm: 'md5', secret: 'k' },
        context,
        true,
      ),
    ).toEqual([
      { path: 'hmacAlgorithm', message: MESSAGES.mustHaveValue },
      { path: 'secret', message: `Must be at least ${LIMITS.hmacKeyMin} characters` },
    ]);
    const hmac = { ...base, authType: 'HMAC' as const, signatureHeader: 'X-Sig', hmacAlgorithm: 'sha256' };
    expect(LIMITS.hmacKeyMin).toBe(32);
    expect(validateHttpSource({ ...hmac, secret: 'k'.repeat(31) }, context, true)).toEqual([
      { path: 'secret', message: 'Must be at least 32 characters' },
    ]);
    expect(validateHttpSource({ ...hmac, secret: 'k'.repeat(32) }, context, true)).toEqual([]);
    expect(validateHttpSource({ ...hmac, secret: '' }, context, false)).toEqual([]);
    expect(validateHttpSource({ ...base, authType: 'Bearer', secret: 'x'.repeat(LIMITS.secret + 1) }, context, true)).toEqual([
      { path: 'secret', message: `Must be at most ${LIMITS.secret} characters` },
    ]);
    expect(validateHttpSource({ ...base, authType: 'Kerberos' as never }, context, true)).toEqual([
      { path: 'authType', message: MESSAGES.mustHaveValue },
    ]);
  });
});
