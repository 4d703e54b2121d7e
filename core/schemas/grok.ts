// Grok-style patterns for the regex parser: `%{PATTERN:field}` captures, `%{PATTERN}` matches, and
// `(?P<field>...)` / `(?<field>...)` named groups. Field names are mapped to generated group names so any
// field name (dots, dashes, repeats) works with JavaScript regular expressions.

export const BUILTIN_PATTERNS: Record<string, string> = {
  USERNAME: '[a-zA-Z0-9._-]+',
  USER: '%{USERNAME}',
  EMAILLOCALPART: "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*",
  EMAILADDRESS: '%{EMAILLOCALPART}@%{HOSTNAME}',
  INT: '[+-]?\\d+',
  BASE10NUM: '[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)',
  NUMBER: '%{BASE10NUM}',
  BASE16NUM: '[+-]?(?:0x)?[0-9A-Fa-f]+',
  POSINT: '[1-9]\\d*',
  NONNEGINT: '\\d+',
  WORD: '\\w+',
  NOTSPACE: '\\S+',
  SPACE: '\\s*',
  DATA: '.*?',
  GREEDYDATA: '.*',
  QUOTEDSTRING: '"(?:[^"\\\\]|\\\\.)*"|\'(?:[^\'\\\\]|\\\\.)*\'',
  QS: '%{QUOTEDSTRING}',
  UUID: '[A-Fa-f0-9]{8}-(?:[A-Fa-f0-9]{4}-){3}[A-Fa-f0-9]{12}',
  MAC: '(?:[A-Fa-f0-9]{2}[:-]){5}[A-Fa-f0-9]{2}|(?:[A-Fa-f0-9]{4}\\.){2}[A-Fa-f0-9]{4}',
  IPV4: '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(?:\\.(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}',
  IPV6: '(?:[A-Fa-f0-9]{0,4}:){2,7}(?:[A-Fa-f0-9]{1,4}|%{IPV4})?(?:%[\\w.]+)?',
  IP: '%{IPV6}|%{IPV4}',
  HOSTNAME: '\\b(?:[0-9A-Za-z][0-9A-Za-z-]{0,62})(?:\\.(?:[0-9A-Za-z][0-9A-Za-z-]{0,62}))*\\.?\\b',
  IPORHOST: '%{IP}|%{HOSTNAME}',
  HOSTPORT: '%{IPORHOST}:%{POSINT}',
  PATH: '(?:/[^\\s]*)+|(?:[A-Za-z]:)?(?:\\\\[^\\s]*)+',
  URIPROTO: '[A-Za-z][A-Za-z0-9+.-]*',
  URIHOST: '%{IPORHOST}(?::%{POSINT})?',
  URIPATH: "(?:/[A-Za-z0-9$.+!*'(){},~:;=@#%&_\\-]*)+",
  URIPARAM: "\\?[A-Za-z0-9$.+!*'|(){},~@#%&/=:;_?\\-\\[\\]<>]*",
  URIPATHPARAM: '%{URIPATH}(?:%{URIPARAM})?',
  URI: '%{URIPROTO}://(?:%{USER}(?::[^@]*)?@)?(?:%{URIHOST})?(?:%{URIPATHPARAM})?',
  MONTH:
    '\\b(?:[Jj]an(?:uary)?|[Ff]eb(?:ruary)?|[Mm]ar(?:ch)?|[Aa]pr(?:il)?|[Mm]ay|[Jj]un(?:e)?|[Jj]ul(?:y)?|[Aa]ug(?:ust)?|[Ss]ep(?:tember)?|[Oo]ct(?:ober)?|[Nn]ov(?:ember)?|[Dd]ec(?:ember)?)\\b',
  MONTHNUM: '0?[1-9]|1[0-2]',
  MONTHDAY: '(?:0[1-9]|[12]\\d|3[01]|[1-9])',
  DAY: '(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)',
  YEAR: '\\d{4}|\\d{2}',
  HOUR: '2[0123]|[01]?\\d',
  MINUTE: '[0-5]\\d',
  SECOND: '(?:[0-5]?\\d|60)(?:[:.,]\\d+)?',
  TIME: '%{HOUR}:%{MINUTE}(?::%{SECOND})?',
  DATE_US: '%{MONTHNUM}[/-]%{MONTHDAY}[/-]%{YEAR}',
  DATE_EU: '%{MONTHDAY}[./-]%{MONTHNUM}[./-]%{YEAR}',
  DATE: '%{DATE_US}|%{DATE_EU}',
  ISO8601_TIMEZONE: 'Z|[+-]%{HOUR}(?::?%{MINUTE})',
  TIMESTAMP_ISO8601: '%{YEAR}-%{MONTHNUM}-%{MONTHDAY}[T ]%{HOUR}:?%{MINUTE}(?::?%{SECOND})?%{ISO8601_TIMEZONE}?',
  HTTPDATE: '%{MONTHDAY}/%{MONTH}/%{YEAR}:%{TIME} [+-]\\d{4}',
  SYSLOGTIMESTAMP: '%{MONTH} +%{MONTHDAY} %{TIME}',
  SYSLOGHOST: '%{IPORHOST}',
  PROG: '[\\x21-\\x5a\\x5c\\x5e-\\x7e]+',
  SYSLOGPROG: '%{PROG:program}(?:\\[%{POSINT:pid}\\])?',
  LOGLEVEL:
    '[Aa]lert|ALERT|[Tt]race|TRACE|[Dd]ebug|DEBUG|[Nn]otice|NOTICE|[Ii]nfo|INFO|[Ww]arn(?:ing)?|WARN(?:ING)?|[Ee]rr(?:or)?|ERR(?:OR)?|[Cc]rit(?:ical)?|CRIT(?:ICAL)?|[Ff]atal|FATAL|[Ss]evere|SEVERE|[Ee]merg(?:ency)?|EMERG(?:ENCY)?',
  HTTPDUSER: '%{EMAILADDRESS}|%{USER}',
  COMMONAPACHELOG:
    '%{IPORHOST:clientip} %{HTTPDUSER:ident} %{HTTPDUSER:auth} \\[%{HTTPDATE:timestamp}\\] "(?:%{WORD:verb} %{NOTSPACE:request}(?: HTTP/%{NUMBER:httpversion})?|%{DATA:rawrequest})" %{NUMBER:response} (?:%{NUMBER:bytes}|-)',
  COMBINEDAPACHELOG: '%{COMMONAPACHELOG} %{QS:referrer} %{QS:agent}',
};

export interface CompiledGrok {
  regex: RegExp;
  /** Field name of each generated group `g<i>`. */
  fields: string[];
}

export class GrokError extends Error {}

const REF = /%\{(\w+)(?::([^:}]+))?(?::\w+)?\}/g;

/** Expands a pattern with its definitions into one JavaScript regular expression with generated group names. */
export function compileGrok(pattern: string, definitions: Record<string, string> = {}): CompiledGrok {
  const fields: string[] = [];
  let flags = 'u';
  let source = pattern;
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    if (inline[1].includes('i')) flags += 'i';
    if (inline[1].includes('s')) flags += 's';
    if (inline[1].includes('m')) flags += 'm';
  }
  const expand = (text: string, depth: number, stack: string[]): string => {
    if (depth > 32) throw new GrokError(`patterns nest too deeply at ${stack.join(' > ')}`);
    const named = text.replace(/\(\?P?<([A-Za-z_][^>]*)>/g, (_, name: string) => {
      fields.push(name);
      return `(?<g${fields.length - 1}>`;
    });
    return named.replace(REF, (_, name: string, field: string | undefined) => {
      const body = definitions[name] ?? BUILTIN_PATTERNS[name];
      if (body === undefined) throw new GrokError(`unknown pattern %{${name}}`);
      if (stack.includes(name)) throw new GrokError(`pattern ${name} refers to itself`);
      const inner = expand(body, depth + 1, [...stack, name]);
      if (!field) return `(?:${inner})`;
      fields.push(field);
      return `(?<g${fields.length - 1}>${inner})`;
    });
  };
  const expanded = expand(source, 0, []);
  try {
    return { regex: new RegExp(expanded, flags), fields };
  } catch (err) {
    try {
      return { regex: new RegExp(expanded, flags.replace('u', '')), fields };
    } catch {
      throw new GrokError(`invalid regular expression: ${(err as Error).message}`);
    }
  }
}
