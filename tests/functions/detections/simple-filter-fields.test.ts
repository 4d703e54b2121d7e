// filterFields: the fields of managed and custom schemas, the standard p_* fields and the shared ones,
// against dynalite (custom schemas are read from the entity table).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterFields, MAX_FILTER_LOG_TYPES } from '../../../functions/lib/detections';
import { createSchema } from '../../../functions/lib/schemas';
import { startEntityTable } from '../alerts/entity-table';

let dynamo: Awaited<ReturnType<typeof startEntityTable>>;
const actor = { email: 'author@example.com', username: 'author' };

beforeAll(async () => {
  dynamo = await startEntityTable('filter-fields');
  await createSchema(
    {
      name: 'Acme.App',
      spec: [
        'fields:',
        '  - name: user',
        '    type: string',
        '    description: Who did it',
        '  - name: clientIp',
        '    type: string',
        '    indicators: [ip]',
        '  - name: meta',
        '    type: object',
        '    fields:',
        '      - name: attempts',
        '        type: bigint',
      ].join('\n'),
    },
    actor,
  );
});
afterAll(async () => dynamo?.stop());

describe('filterFields', () => {
  it('answers a custom schema’s fields with their types and descriptions', async () => {
    const fields = await filterFields(['Custom.Acme.App'], true);
    expect(fields.filtersByLogType).toEqual([
      {
        logType: 'Custom.Acme.App',
        filters: [
          { target: 'user', type: 'string', description: 'Who did it', isPantherManaged: false, logType: 'Custom.Acme.App' },
          { target: 'clientIp', type: 'ip', description: '', isPantherManaged: false, logType: 'Custom.Acme.App' },
          { target: 'meta', type: 'object', description: '', isPantherManaged: false, logType: 'Custom.Acme.App' },
          { target: 'meta.attempts', type: 'int', description: '', isPantherManaged: false, logType: 'Custom.Acme.App' },
        ],
      },
    ]);
    expect(fields.pantherManaged.map((f) => f.target)).toContain('p_any_ip_addresses');
    expect(fields.pantherManaged.find((f) => f.target === 'p_any_ip_addresses')?.type).toBe('ip[]');
    expect(fields.flatFields.map((f) => f.target).slice(-4)).toEqual(['user', 'clientIp', 'meta', 'meta.attempts']);
  });

  it('answers a managed schema, and the fields two log types share', async () => {
    const fields = await filterFields(['AWS.CloudTrail', 'Custom.Acme.App']);
    const cloudTrail = fields.filtersByLogType[0].filters;
    expect(cloudTrail.find((f) => f.target === 'sourceIPAddress')?.type).toBe('ip');
    expect(cloudTrail.find((f) => f.target === 'userIdentity.type')?.type).toBe('string');
    expect(fields.shared).toEqual([]);
    const same = await filterFields(['Custom.Acme.App', 'custom.acme.app '], true);
    expect(same.filtersByLogType).toHaveLength(2);
    expect(same.shared.map((f) => f.target)).toEqual(['user', 'clientIp', 'meta', 'meta.attempts']);
  });

  it('leaves out fields of unsafe types (objects, json and arrays of them) unless showUnsafeTypes', async () => {
    const fields = await filterFields(['Custom.Acme.App']);
    expect(fields.filtersByLogType[0].filters.map((f) => f.target)).toEqual(['user', 'clientIp', 'meta.attempts']);
    expect(fields.flatFields.map((f) => f.target)).not.toContain('meta');
    expect(fields.pantherManaged.map((f) => f.target)).not.toContain('p_udm');
    expect((await filterFields(['Custom.Acme.App'], null)).flatFields).toEqual(fields.flatFields);
    const unsafe = await filterFields(['Custom.Acme.App'], true);
    expect(unsafe.flatFields.map((f) => f.target)).toEqual(expect.arrayContaining(['meta', 'p_udm']));
    await expect(filterFields(['Custom.Acme.App'], 'yes')).rejects.toThrow('showUnsafeTypes must be true or false');
  });

  it('answers no fields of its own for a log type without a schema, and refuses bad input', async () => {
    expect((await filterFields(['Nope.Nothing'])).filtersByLogType).toEqual([{ logType: 'Nope.Nothing', filters: [] }]);
    await expect(filterFields('AWS.CloudTrail')).rejects.toThrow('logTypes must be a list of log type names');
    await expect(filterFields([''])).rejects.toThrow('logTypes must be a list');
    await expect(filterFields(Array.from({ length: MAX_FILTER_LOG_TYPES + 1 }, (_, i) => `T${i}`))).rejects.toThrow(
      `at most ${MAX_FILTER_LOG_TYPES}`,
    );
  });
});
