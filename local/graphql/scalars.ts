// AppSync's scalars with AppSync's validation rules: a malformed value is refused before any resolver runs.
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { isIP } from 'node:net';

const TZ = '(Z|[+-]\\d{2}:\\d{2}(:\\d{2})?)';
const DATE = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])';
const TIME = '([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?';

function stringScalar(name: string, description: string, valid: (s: string) => boolean): GraphQLScalarType {
  const check = (value: unknown): string => {
    if (typeof value !== 'string' || !valid(value)) {
      throw new GraphQLError(`Unable to parse ${JSON.stringify(value)} as a valid ${name}`);
    }
    return value;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: check,
    parseValue: check,
    parseLiteral(ast: ValueNode) {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string`, { nodes: ast });
      return check(ast.value);
    },
  });
}

const re = (source: string) => new RegExp(`^${source}$`);
const DATE_RE = re(`${DATE}${TZ}?`);
const TIME_RE = re(`${TIME}${TZ}?`);
const DATETIME_RE = re(`${DATE}T${TIME}${TZ}`);
const EMAIL_RE = /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const PHONE_RE = /^\+?[0-9][0-9 ()-.]{2,30}$/;

function isUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return /^[a-z][a-z0-9+.-]*:$/.test(u.protocol) && (u.host !== '' || u.protocol === 'mailto:');
  } catch {
    return false;
  }
}

function isIpAddress(s: string): boolean {
  const [ip, prefix, ...rest] = s.split('/');
  if (rest.length) return false;
  const version = isIP(ip);
  if (!version) return false;
  if (prefix === undefined) return true;
  const n = Number(prefix);
  return /^\d+$/.test(prefix) && n >= 0 && n <= (version === 4 ? 32 : 128);
}

const AWSTimestamp = new GraphQLScalarType({
  name: 'AWSTimestamp',
  description: 'Seconds since 1970-01-01T00:00Z.',
  serialize: (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new GraphQLError(`Unable to serialize ${JSON.stringify(v)} as a valid AWSTimestamp`);
    return v;
  },
  parseValue: (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new GraphQLError(`Unable to parse ${JSON.stringify(v)} as a valid AWSTimestamp`);
    return v;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT) throw new GraphQLError('AWSTimestamp must be an integer', { nodes: ast });
    return Number(ast.value);
  },
});

/** AWSJSON travels as a string holding JSON; resolvers receive and return the parsed value. */
const AWSJSON = new GraphQLScalarType({
  name: 'AWSJSON',
  description: 'A JSON document, sent as a string.',
  serialize: (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
  parseValue: (v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      throw new GraphQLError(`Unable to parse ${JSON.stringify(v)} as valid JSON`);
    }
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('AWSJSON must be a string', { nodes: ast });
    try {
      return JSON.parse(ast.value);
    } catch {
      throw new GraphQLError(`Unable to parse ${JSON.stringify(ast.value)} as valid JSON`, { nodes: ast });
    }
  },
});

export const APPSYNC_SCALARS: Record<string, GraphQLScalarType> = {
  AWSDate: stringScalar('AWSDate', 'An extended ISO 8601 date: YYYY-MM-DD.', (s) => DATE_RE.test(s)),
  AWSTime: stringScalar('AWSTime', 'An extended ISO 8601 time: hh:mm:ss.sss.', (s) => TIME_RE.test(s)),
  AWSDateTime: stringScalar(
    'AWSDateTime',
    'An extended ISO 8601 date and time with a time zone.',
    (s) => DATETIME_RE.test(s) && !Number.isNaN(Date.parse(s)),
  ),
  AWSTimestamp,
  AWSEmail: stringScalar('AWSEmail', 'An email address (RFC 822).', (s) => EMAIL_RE.test(s)),
  AWSJSON,
  AWSURL: stringScalar('AWSURL', 'A URL with a scheme (RFC 1738).', isUrl),
  AWSPhone: stringScalar('AWSPhone', 'A phone number.', (s) => PHONE_RE.test(s)),
  AWSIPAddress: stringScalar('AWSIPAddress', 'An IPv4 or IPv6 address, optionally with a CIDR prefix.', isIpAddress),
};
