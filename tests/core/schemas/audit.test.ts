// The audit of the managed schemas (scripts/audit-managed-schemas.ts): what it lists, and the invariants the
// issue-16 pass established, so a schema change that narrows a type again is caught here.
import { describe, expect, it } from 'vitest';
import { auditManagedSchemas, familyOf, POLYMORPHIC_NAME, UNSIGNED_64_NAME } from '../../../scripts/audit-managed-schemas';
import { CLOSED_VALUE_LISTS } from '../../../scripts/gen-managed-schemas';
import { MANAGED_SCHEMA_YAML } from '../../../core/schemas/managed/index';

const audit = auditManagedSchemas({ ...MANAGED_SCHEMA_YAML });

describe('the managed schema audit', () => {
  it('walks every managed schema and finds each kind of narrowing', () => {
    expect(audit.schemas).toBe(Object.keys(MANAGED_SCHEMA_YAML).length);
    expect(audit.required.length).toBeGreaterThan(300);
    expect(audit.integers64.some((f) => f.flagged)).toBe(true);
    expect(audit.shaped.some((f) => f.flagged)).toBe(true);
    // Every allow list it finds is one the generator knows as closed.
    for (const f of audit.valueLists.filter((v) => v.note?.startsWith('allow')))
      expect(CLOSED_VALUE_LISTS[`${f.schema}:${f.path}`], `${f.schema}:${f.path}`).toBeDefined();
  });

  it('finds a narrowing written into a schema', () => {
    const yaml =
      'schema: Custom.Probe\nfields:\n  - name: flowId\n    type: bigint\n    required: true\n' +
      '  - name: details\n    type: object\n    fields:\n      - name: a\n        type: string\n' +
      '  - name: kind\n    type: string\n    validate:\n      allow: [a, b]\n';
    const probe = auditManagedSchemas({ 'Custom.Probe': yaml });
    expect(probe.required).toEqual([{ schema: 'Custom.Probe', path: 'flowId', type: 'bigint' }]);
    expect(probe.integers64).toEqual([{ schema: 'Custom.Probe', path: 'flowId', type: 'bigint', flagged: true }]);
    expect(probe.shaped).toEqual([{ schema: 'Custom.Probe', path: 'details', type: 'object', flagged: true, note: '1 fields' }]);
    expect(probe.valueLists).toEqual([{ schema: 'Custom.Probe', path: 'kind', type: 'string', note: 'allow ["a","b"]' }]);
    expect(familyOf('Microsoft365.Audit.Exchange')).toBe('Microsoft365');
  });

  it('names ids, hashes, counters and sizes, and parameter-like objects', () => {
    for (const name of ['Nonce', 'flow_id', 'ProcessId', 'orig_bytes', 'cgroup_id', 'externalId', 'seq'])
      expect(UNSIGNED_64_NAME.test(name), name).toBe(true);
    for (const name of ['status', 'port', 'severity', 'version']) expect(UNSIGNED_64_NAME.test(name), name).toBe(false);
    for (const name of ['actionParams', 'details', 'inputs', 'metadata']) expect(POLYMORPHIC_NAME.test(name), name).toBe(true);
  });
});

describe('types the vendor documentation fixes', () => {
  it('account, subscription and project ids are text: an AWS account id keeps its leading zero, Azure and GCP ids are not numbers', () => {
    const numericAccountIds = audit.integers64.filter((f) => /(account|subscription|project|external|tenant)_?id$/i.test(f.path));
    expect(numericAccountIds).toEqual([]);
  });

  it('documented unsigned 64-bit ids are text (exact), not bigint (signed)', () => {
    const asInteger = new Set(audit.integers64.map((f) => `${f.schema}:${f.path}`));
    for (const key of ['Crowdstrike.FDREvent:event.Nonce', 'Crowdstrike.FDREvent:event.ProcessId', 'Suricata.Flow:flow_id'])
      expect(asInteger.has(key), key).toBe(false);
  });

  it('fields a vendor may leave out are not required', () => {
    const required = new Set(audit.required.map((f) => `${f.schema}:${f.path}`));
    for (const key of [
      // Logpush fields a job may not select.
      'Cloudflare.HttpRequest:ClientRequestHost',
      'Cloudflare.HttpRequest:EdgeResponseStatus',
      // Null when a service account acted.
      'Wiz.Audit:user',
      // Azure resource logs: resultDescription is optional in the common schema.
      'MicrosoftIntune.AuditLogs:resultDescription',
      // Netskope: system-initiated audit events carry no normalized user.
      'Netskope.Audit:ur_normalized',
      // Salesforce Login event log: API fields are set only for API logins, the browser only for browser logins.
      'Salesforce.Login:API_VERSION',
      'Salesforce.Login:BROWSER_TYPE',
    ]) {
      const [schema, path] = key.split(':');
      expect(MANAGED_SCHEMA_YAML[schema as keyof typeof MANAGED_SCHEMA_YAML], key).toContain(`name: ${path.split('.').at(-1)}\n`);
      expect(required.has(key), key).toBe(false);
    }
  });
});
