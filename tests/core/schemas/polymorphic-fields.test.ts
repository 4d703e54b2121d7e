// Object fields whose contents the vendor documents as varying by event type (issue 16): typed `json`, so an
// event whose sub-field has another shape than the samples' is kept as sent instead of refused (or renamed).
// The events are written here after each vendor's documentation of the field:
// - Google Workspace: Reports API activities (`events[].parameters`, a value, int, bool, list or nested message
//   per application and event) and the Gmail log schema, where `message_info.attachment` and
//   `message_info.message_set` are repeated records;
// - SentinelOne: an activity's `data` holds activity-specific data, its keys depending on `activityType`;
// - GitHub: the rulesets API, whose rules and conditions carry `parameters` shaped by their `type` / target
//   (`repository_property` conditions list objects, `ref_name` ones list names);
// - Docusign Connect (JSON SIM): `data` holds the data of the triggering event, plus the envelope summary when
//   the configuration asks for it;
// - Dropbox team_log/get_events: `details` is EventDetails, a union told apart by `.tag`, whose fields depend on
//   the event type; public detections read `details[".tag"]`.
import { describe, expect, it } from 'vitest';
import { classifier, compileSchema, managedSchema, managedSchemas } from '../../../core/schemas/index';
import { MANAGED_SCHEMA_YAML } from '../../../core/schemas/managed/index';
import { PARSE_TIME } from './golden';

const ctx = { parseTime: PARSE_TIME };
const all = classifier(managedSchemas());

/** The event as its own schema normalizes it; also checks that classification among all schemas picks it. */
function accepted(logType: string, event: unknown): Record<string, unknown> {
  const line = JSON.stringify(event);
  const own = compileSchema(managedSchema(logType)!).parse(line, ctx);
  if (!own.ok) throw new Error(`${logType} refused the event: ${own.error}`);
  expect(all.classify(line, ctx)).toMatchObject({ ok: true, logType });
  return own.events[0] as unknown as Record<string, unknown>;
}

describe('fields the vendor documents as varying by event type are json', () => {
  it('the five object fields (and GitHub ruleset conditions) are typed json in the managed schemas', () => {
    const declared = (logType: keyof typeof MANAGED_SCHEMA_YAML, name: string) => {
      const yaml = MANAGED_SCHEMA_YAML[logType];
      const at = yaml.indexOf(`- name: ${name}\n`);
      expect(at, `${logType} ${name}`).toBeGreaterThanOrEqual(0);
      // The field's own `type:` line is the first after its name and its comment lines.
      return /\n\s*type: (\w+)/.exec(yaml.slice(at))?.[1];
    };
    expect(declared('GSuite.ActivityEvent', 'parameters')).toBe('json');
    expect(declared('SentinelOne.Activity', 'data')).toBe('json');
    expect(declared('Docusign.Connect', 'data')).toBe('json');
    expect(declared('Dropbox.TeamEvent', 'details')).toBe('json');
    const github = MANAGED_SCHEMA_YAML['GitHub.Audit'];
    for (const parent of ['ruleset_rules', 'ruleset_conditions']) {
      const block = github.slice(github.indexOf(`- name: ${parent}\n`));
      const parameters = block.slice(block.indexOf('- name: parameters\n'));
      expect(/\n\s*type: (\w+)/.exec(parameters)?.[1], parent).toBe('json');
    }
  });

  it('GSuite: a Gmail delivery with two attachments and two message sets (repeated records) is kept', () => {
    const event = accepted('GSuite.ActivityEvent', {
      kind: 'admin#reports#activity',
      id: { applicationName: 'gmail', customerId: 'C03az79cb', time: '2025-03-02T08:15:00.000Z', uniqueQualifier: '-8812' },
      actor: { callerType: 'USER', email: 'merry@shire.example', profileId: '1207' },
      type: 'message_delivery',
      name: 'delivery',
      parameters: {
        event_info: { success: true, timestamp_usec: 1740903300000000, elapsed_time_usec: 1200 },
        message_info: {
          action_type: 2,
          subject: 'Quarterly numbers',
          attachment: [
            { file_name: 'numbers.xlsx', sha256: 'a1'.repeat(32) },
            { file_name: 'notes.pdf', sha256: 'b2'.repeat(32), malware_family: 3 },
          ],
          message_set: [{ type: 8 }, { type: 19 }],
          link_domain: ['shire.example'],
        },
      },
    });
    const info = (event.parameters as Record<string, Record<string, unknown>>).message_info;
    expect((info.attachment as unknown[]).length).toBe(2);
    expect(info.message_set).toEqual([{ type: 8 }, { type: 19 }]);
  });

  it('GSuite: a Drive event whose old and new values are lists (admin events send them as text)', () => {
    const drive = accepted('GSuite.ActivityEvent', {
      kind: 'admin#reports#activity',
      id: { applicationName: 'drive', time: '2025-03-02T09:00:00Z', uniqueQualifier: '77' },
      actor: { email: 'pippin@shire.example' },
      type: 'acl_change',
      name: 'change_document_visibility',
      parameters: {
        doc_id: '1AbC',
        doc_title: 'Plans',
        visibility: 'people_with_link',
        old_value: ['private'],
        new_value: ['people_with_link'],
        billable: true,
        primary_event: true,
      },
    });
    expect((drive.parameters as Record<string, unknown>).new_value).toEqual(['people_with_link']);
  });

  it('SentinelOne: activity-specific data whose keys hold lists and objects is kept as sent', () => {
    const event = accepted('SentinelOne.Activity', {
      accountid: '1502934217321048201',
      activitytype: 3608,
      activityuuid: '5a9e1f2c-0d43-4c55-9f7e-3b8d2a6c1e07',
      createdat: '2025-03-02T10:00:00.000Z',
      id: '2100000000000000001',
      primarydescription: 'Custom rule alert for several indicators',
      data: {
        rulename: 'known bad hosts',
        tiindicatorvalue: ['203.0.113.9', '198.51.100.4'],
        dstip: ['203.0.113.9'],
        status: { code: 2, text: 'resolved' },
      },
    });
    expect((event.data as Record<string, unknown>).tiindicatorvalue).toEqual(['203.0.113.9', '198.51.100.4']);
  });

  it('GitHub: a ruleset whose condition targets a repository property and whose rules are of several types', () => {
    const event = accepted('GitHub.Audit', {
      action: 'repository_ruleset.create',
      actor: 'samwise',
      org: 'fellowship',
      created_at: 1740909600000,
      _document_id: 'rs-1',
      ruleset_id: '4112',
      ruleset_name: 'production repos',
      ruleset_conditions: [
        {
          id: 1,
          target: 'repository_property',
          parameters: { include: [{ name: 'environment', property_values: ['production'], source: 'custom' }], exclude: [] },
        },
        { id: 2, target: 'ref_name', parameters: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
      ],
      ruleset_rules: [
        {
          id: 10,
          type: 'required_status_checks',
          parameters: {
            strict_required_status_checks_policy: true,
            required_status_checks: [{ context: 'ci/test', integration_id: 15368 }],
          },
        },
        { id: 11, type: 'workflows', parameters: { workflows: [{ path: '.github/workflows/audit.yml', repository_id: 99 }] } },
        { id: 12, type: 'pull_request', parameters: { required_approving_review_count: 2, allowed_merge_methods: ['squash'] } },
      ],
    });
    const conditions = event.ruleset_conditions as Array<{ parameters: { include: unknown[] } }>;
    expect(conditions[0].parameters.include[0]).toEqual({
      name: 'environment',
      property_values: ['production'],
      source: 'custom',
    });
    const rules = event.ruleset_rules as Array<{ parameters: Record<string, unknown> }>;
    expect(rules[0].parameters.required_status_checks).toEqual([{ context: 'ci/test', integration_id: 15368 }]);
  });

  it('Docusign: envelope and template events carry different data, each kept as sent', () => {
    const envelope = accepted('Docusign.Connect', {
      event: 'envelope-completed',
      apiVersion: 'v2.1',
      uri: '/restapi/v2.1/accounts/a1/envelopes/e1',
      retryCount: 0,
      configurationId: '10555',
      generatedDateTime: '2025-03-02T11:00:00.0000000Z',
      data: {
        accountId: 'a1',
        userId: 'u1',
        envelopeId: 'e1',
        envelopeSummary: {
          status: 'completed',
          emailSubject: 'Please sign',
          recipients: { signers: [{ email: 'rosie@shire.example', routingOrder: '1', status: 'completed' }] },
          customFields: { textCustomFields: [{ name: 'deal', value: '42' }] },
        },
      },
    });
    const summary = (envelope.data as Record<string, Record<string, unknown>>).envelopeSummary;
    expect((summary.recipients as Record<string, unknown[]>).signers).toHaveLength(1);
    const template = accepted('Docusign.Connect', {
      event: 'template-modified',
      configurationId: '10555',
      generatedDateTime: '2025-03-02T11:05:00Z',
      data: { accountId: 'a1', userId: 'u1', templateId: 't9', templates: [{ templateId: 't9', shared: 'true' }] },
    });
    expect((template.data as Record<string, unknown>).templateId).toBe('t9');
  });

  it('Dropbox: a two-step verification change keeps details as sent, `.tag` included (what detections read)', () => {
    const event = accepted('Dropbox.TeamEvent', {
      timestamp: '2025-03-02T12:00:00Z',
      event_category: { _tag: 'tfas' },
      event_type: { _tag: 'tfa_change_status', description: 'Enabled/disabled/changed two-step verification setting' },
      actor: { _tag: 'user', user: { _tag: 'team_member', email: 'frodo@shire.example' } },
      involve_non_team_member: false,
      details: {
        '.tag': 'tfa_change_status_details',
        new_value: { '.tag': 'disabled' },
        previous_value: { '.tag': 'authenticator' },
        used_rescue_code: false,
      },
    });
    const details = event.details as Record<string, unknown>;
    expect(details['.tag']).toBe('tfa_change_status_details');
    expect(details.new_value).toEqual({ '.tag': 'disabled' });
  });
});
