// `caracal parse` and `caracal schema` end to end, as a user runs them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'caracal-parse-'));

function caracal(args: string[], input?: string | Buffer) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bin/caracal.ts'), ...args], {
    cwd: root,
    input: typeof input === 'string' ? Buffer.from(input) : input,
  });
  const stderr = r.stderr.toString('utf8').trimEnd().split('\n');
  return { status: r.status, stdout: r.stdout.toString('utf8'), stderr, last: stderr[stderr.length - 1] };
}

const trail = (name: string) =>
  JSON.stringify({
    eventVersion: '1.08',
    eventTime: '2026-11-21T10:00:00Z',
    eventSource: 'iam.amazonaws.com',
    eventName: name,
    awsRegion: 'us-east-1',
    sourceIPAddress: '203.0.113.7',
  });

describe('caracal parse', () => {
  const lines = [trail('CreateUser'), '', '{"eventName":"x"}', trail('DeleteUser')].join('\n') + '\n';

  it('writes normalized events and reports failures with line numbers', () => {
    const file = join(dir, 'trail.jsonl');
    writeFileSync(file, lines);
    const r = caracal([
      'parse',
      '--log-type',
      'AWS.CloudTrail',
      '--parse-time',
      '2026-11-21T12:00:00Z',
      '--source-id',
      'src-1',
      file,
    ]);
    expect(r.status).toBe(1);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.eventName)).toEqual(['CreateUser', 'DeleteUser']);
    expect(events[0]).toMatchObject({
      p_log_type: 'AWS.CloudTrail',
      p_source_id: 'src-1',
      p_parse_time: '2026-11-21 12:00:00.000000000',
      p_any_ip_addresses: ['203.0.113.7'],
    });
    expect(r.stderr).toEqual([
      'line 2: empty line',
      'line 3: field "awsRegion": required field is missing',
      '2 parsed, 2 failed',
    ]);
  });

  it('reads gzip transparently and from stdin', () => {
    const r = caracal(['parse', '--log-type', 'AWS.CloudTrail', '-'], gzipSync(trail('A') + '\n' + trail('B') + '\n'));
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.last).toBe('2 parsed, 0 failed');
  });

  it('counts a truncated gzip input as a failure and keeps the lines before it', () => {
    const many = Array.from({ length: 2000 }, (_, i) => trail(`E${i}`)).join('\n') + '\n';
    const gz = gzipSync(many);
    const file = join(dir, 'truncated.json.gz');
    writeFileSync(file, gz.subarray(0, Math.floor(gz.length * 0.6)));
    const r = caracal(['parse', '--log-type', 'AWS.CloudTrail', file]);
    expect(r.status).toBe(1);
    expect(r.last).toMatch(/^\d+ parsed, 1 failed$/);
    expect(r.stderr[r.stderr.length - 2]).toMatch(/^line \d+: gzip input is truncated or corrupt: unexpected end of file$/);
    const parsed = Number(r.last.split(' ')[0]);
    expect(parsed).toBeGreaterThan(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(parsed);
  });

  it('classifies among several log types and reads a schema file', () => {
    const schema = join(dir, 'app.yml');
    writeFileSync(schema, 'schema: Custom.App\nfields:\n  - name: app\n    type: string\n    required: true\n');
    const input = [trail('A'), '{"app":"billing"}', '<34>Oct 11 22:14:15 host su: failed'].join('\n');
    const r = caracal(['parse', '--classify', `AWS.CloudTrail,${schema},Syslog.RFC3164`, '-'], input);
    expect(r.status).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).p_log_type),
    ).toEqual(['AWS.CloudTrail', 'Custom.App', 'Syslog.RFC3164']);
  });

  it('writes the fields field discovery found', () => {
    const out = join(dir, 'discovered.yml');
    const line = JSON.stringify({ ...JSON.parse(trail('A')), newThing: { score: 0.5 } });
    const r = caracal(['parse', '--log-type', 'AWS.CloudTrail', '--discovered', out, '-'], line);
    expect(r.last).toBe('1 parsed, 0 failed');
    expect(readFileSync(out, 'utf8')).toBe(
      [
        'schema: AWS.CloudTrail',
        'fields:',
        '  - name: newThing',
        '    type: object',
        '    fields:',
        '      - name: score',
        '        type: float',
        '        isDiscovered: true',
        '    isDiscovered: true',
        '',
      ].join('\n'),
    );
  });

  it('explains usage errors', () => {
    expect(caracal(['parse', '--log-type', 'No.Such']).stderr[0]).toBe(
      "caracal parse: unknown log type 'No.Such' (see 'caracal schema list')",
    );
    expect(caracal(['parse']).status).toBe(2);
  });
});

describe('caracal schema', () => {
  it('lists the managed log types', () => {
    const r = caracal(['schema', 'list']);
    expect(r.status).toBe(0);
    const names = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/)[0]);
    expect(names).toContain('AWS.CloudTrail');
    expect(names).toContain('Syslog.RFC5424');
  });

  it('validates a schema file with the specification messages', () => {
    const file = join(dir, 'bad.yml');
    writeFileSync(
      file,
      'schema: Custom.Bad\nparser:\n  fastmatch:\n    match: ["abc"]\nfields:\n  - name: t\n    type: timestamp\n',
    );
    const r = caracal(['schema', 'validate', file]);
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      `${file}: error at fields[0]: Timestamps need a timeFormat or timeFormats`,
      `${file}: error at parser.fastmatch.match[0]: Must be at least 4 characters long`,
    ]);
  });

  it('infers a schema from sample events', () => {
    const samples = [
      '{"time":"2026-01-01T00:00:00Z","ip":"10.0.0.1","n":1,"user":{"email":"a@b.co"}}',
      '{"time":"2026-01-02T00:00:00Z","ip":"10.0.0.2","n":2.5}',
    ].join('\n');
    const r = caracal(['schema', 'infer', '-', '--name', 'Custom.Sample'], samples);
    expect(r.status).toBe(0);
    expect(r.last).toBe('2 events read, 0 skipped');
    expect(r.stdout).toBe(
      [
        'schema: Custom.Sample',
        'description: Inferred from 2 sample events',
        'fields:',
        '  - name: time',
        '    type: timestamp',
        '    timeFormats:',
        '      - rfc3339',
        '    isEventTime: true',
        '  - name: ip',
        '    type: string',
        '    indicators:',
        '      - ip',
        '  - name: "n"',
        '    type: float',
        '  - name: user',
        '    type: object',
        '    fields:',
        '      - name: email',
        '        type: string',
        '        indicators:',
        '          - email',
        '',
      ].join('\n'),
    );
  });
});
