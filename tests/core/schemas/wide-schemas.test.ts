// The managed schemas as wide as the real logs (issue 16): the four reported events (their raw lines are the
// golden inputs `<LogType>--<case>.input.jsonl`, modelled on the vendors' documentation), exact 64-bit
// integers, and the generator's guard against value lists learnt from samples.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLOSED_VALUE_LISTS, valueListProblems } from '../../../scripts/gen-managed-schemas';
import { classifier, compileSchema, managedSchema, managedSchemas } from '../../../core/schemas/index';
import { quoteUnsafeIntegers, readJsonObject } from '../../../core/schemas/parsers/json';
import { MANAGED_SCHEMA_YAML } from '../../../core/schemas/managed/index';
import { GOLDEN_DIR, PARSE_TIME } from './golden';

const ctx = { parseTime: PARSE_TIME };
const all = classifier(managedSchemas());

function goldenLines(base: string): string[] {
  return readFileSync(`${GOLDEN_DIR}/${base}.input.jsonl`, 'utf8').trimEnd().split('\n');
}

function parsedBy(logType: string, line: string): Record<string, unknown> {
  const result = compileSchema(managedSchema(logType)!).parse(line, ctx);
  if (!result.ok) throw new Error(`${logType} refused the line: ${result.error}`);
  return result.events[0] as unknown as Record<string, unknown>;
}

describe('Entra ID audit events of any category', () => {
  const lines = goldenLines('Azure.Audit--open-categories');

  it('Policy and ApplicationManagement events are Azure.Audit, not Azure.MonitorActivity', () => {
    const categories = lines.map((line) => {
      const result = all.classify(line, ctx);
      expect(result.ok && result.logType, line.slice(0, 120)).toBe('Azure.Audit');
      return result.ok ? (result.events[0] as unknown as Record<string, unknown>).category : null;
    });
    expect(categories).toEqual(['Policy', 'ApplicationManagement']);
  });

  it('Azure.MonitorActivity refuses tenant-scoped events and Azure.Audit refuses subscription-scoped ones', () => {
    const monitor = compileSchema(managedSchema('Azure.MonitorActivity')!);
    expect(monitor.parse(lines[0], ctx)).toEqual({ ok: false, error: 'field "resourceScope": value "tenants" is denied' });
    const activity = JSON.stringify({
      time: '2024-05-02T18:04:21.5537421Z',
      resourceId:
        '/subscriptions/1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9/providers/Microsoft.Authorization/policyAssignments/deny-public-ip',
      operationName: 'Microsoft.Authorization/policyAssignments/write',
      category: 'Policy',
      resultType: 'Success',
      properties: { policies: '[]' },
    });
    expect(all.classify(activity, ctx)).toMatchObject({ ok: true, logType: 'Azure.MonitorActivity' });
    const audit = compileSchema(managedSchema('Azure.Audit')!);
    expect(audit.parse(activity, ctx)).toMatchObject({ ok: false, error: expect.stringContaining('resourceScope') });
  });
});

describe('unsigned 64-bit numbers', () => {
  it('a CrowdStrike FDR Nonce of 2^64-1 is kept as its exact decimal text', () => {
    const [line, quoted] = goldenLines('Crowdstrike.FDREvent--unsigned-64');
    const event = parsedBy('Crowdstrike.FDREvent', line).event as Record<string, unknown>;
    expect(event.Nonce).toBe('18446744073709551615');
    expect(event.ProcessId).toBe('14989365782014578412');
    expect((parsedBy('Crowdstrike.FDREvent', quoted).event as Record<string, unknown>).Nonce).toBe('9223372036854775809');
    expect(all.classify(line, ctx)).toMatchObject({ ok: true, logType: 'Crowdstrike.FDREvent' });
  });

  it('integers beyond 2^53 are read as their digits; everything else as JSON.parse reads it', () => {
    expect(quoteUnsafeIntegers('{"a":18446744073709551615,"b":[-9223372036854775809, 12]}')).toBe(
      '{"a":"18446744073709551615","b":["-9223372036854775809", 12]}',
    );
    // Safe integers, fractions, exponents and digits inside strings (escaped quotes too) stay as they are.
    const untouched = '{"a":9007199254740991,"b":12345678901234567.5,"c":1e300,"d":"x\\"18446744073709551615","e":-1}';
    expect(quoteUnsafeIntegers(untouched)).toBe(untouched);
    expect(readJsonObject('{"n":12345678901234567890,"s":"12345678901234567890"}')).toEqual({
      n: '12345678901234567890',
      s: '12345678901234567890',
    });
    expect(readJsonObject('{"n":1234567890123456}')).toEqual({ n: 1234567890123456 });
    expect(readJsonObject('{"n":12345678901234567890')).toMatch(/^invalid JSON: /);
  });

  it('a bigint field still refuses what a signed 64-bit number cannot hold', () => {
    const spec = { schema: 'Custom.Big', fields: [{ name: 'n', type: 'bigint' as const }] };
    const parser = compileSchema(spec);
    expect(parser.parse('{"n":18446744073709551615}', ctx)).toEqual({
      ok: false,
      error: 'field "n": number 18446744073709551615 is out of range for bigint',
    });
    expect(parser.parse('{"n":4611686018427387904}', ctx)).toMatchObject({ ok: true });
  });
});

describe('polymorphic values typed json', () => {
  it('a Bedrock invocation whose message content is a string keeps it, beside one whose content is a list', () => {
    const [invoke, converse] = goldenLines('AWS.BedrockModelInvocation--string-content');
    const first = parsedBy('AWS.BedrockModelInvocation', invoke) as { input: { inputBodyJson: { messages: unknown[] } } };
    expect(first.input.inputBodyJson.messages).toEqual([
      { role: 'user', content: 'Summarise the attached policy in one sentence.' },
    ]);
    const second = parsedBy('AWS.BedrockModelInvocation', converse) as {
      output: { outputBodyJson: { output: { message: { content: unknown } } } };
    };
    expect(second.output.outputBodyJson.output.message.content).toBe('Hello! How can I help?');
    for (const line of [invoke, converse])
      expect(all.classify(line, ctx)).toMatchObject({ ok: true, logType: 'AWS.BedrockModelInvocation' });
  });

  it('a Panther audit event whose dynamic action parameters hold a string is read', () => {
    const [inInput, wholeDynamic] = goldenLines('Panther.Audit--string-params');
    expect(parsedBy('Panther.Audit', inInput).actionParams).toEqual({ dynamic: { input: 'Okta.BruteForceLogins' }, static: {} });
    expect(parsedBy('Panther.Audit', wholeDynamic).actionParams).toEqual({
      dynamic: '3f2b1c0d-9e8a-4b7c-a6d5-e4f3a2b1c0d9',
      input: '3f2b1c0d-9e8a-4b7c-a6d5-e4f3a2b1c0d9',
    });
    for (const line of [inInput, wholeDynamic])
      expect(all.classify(line, ctx)).toMatchObject({ ok: true, logType: 'Panther.Audit' });
  });
});

describe('value lists in the managed schemas', () => {
  it('every one is documented as closed or as the constant naming its log type, with a reason', () => {
    expect(valueListProblems()).toEqual([]);
    for (const [key, list] of Object.entries(CLOSED_VALUE_LISTS)) expect(list.why.length, key).toBeGreaterThan(10);
  });

  it('the generator names a list learnt from samples, and one documented but gone', () => {
    const files = { ...MANAGED_SCHEMA_YAML };
    files['AWS.CloudFront'] = files['AWS.CloudFront'].replace(
      '    rename: { from: "x-edge-result-type" }\n    type: string\n',
      '    rename: { from: "x-edge-result-type" }\n    type: string\n    validate:\n      allow: [Hit, Miss]\n',
    );
    files['Zeek.Conn'] = files['Zeek.Conn'].replace(
      '      allow: [tcp, udp, icmp, unknown_transport]\n',
      '      allow: [tcp, udp]\n',
    );
    delete files['Box.Event'];
    expect(valueListProblems(files)).toEqual([
      'AWS.CloudFront:edgeResultType: value list ["Hit","Miss"] is not documented as closed',
      'Zeek.Conn:proto: value list ["tcp","udp"] differs from the documented ["tcp","udp","icmp","unknown_transport"]',
      'Box.Event:type: documented but not in any schema',
    ]);
  });
});
