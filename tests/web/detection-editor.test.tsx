// @vitest-environment jsdom
// The detection editor: the form's values to the panther-analysis document and back (keys it does not show
// kept), the templates, the Create Alert toggle hiding the alert fields, tags by the tag rules, MITRE mappings
// from the bundled list, required fields, the type chooser of the new page and its query parameters, the
// Python completions, and the editor read-only for a user without RuleModify.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readYaml } from '../../core/yaml';
import { AppRoutes } from '../../web/src/app/AppRoutes';
import { newDetectionPath, detectionPath, editDetectionPath } from '../../web/src/app/routes';
import {
  documentFromValues,
  emptyValues,
  valuesFromDocument,
  withTemplate,
  type DetectionFormValues,
} from '../../web/src/features/detections/editor/detectionDocument';
import { DetectionForm } from '../../web/src/features/detections/editor/DetectionForm';
import { pythonCompletions } from '../../web/src/lib/editor/pythonCompletions';
import { EDITOR_DETECTION_QUERY, EDITOR_OPTIONS_QUERY } from '../../web/src/screens/Detections/detectionEditor.operations';
import { cloneValues, kindOfParams } from '../../web/src/screens/Detections/NewDetectionPage';
import { renderInApp } from './support/render';
import { renderWithApi } from './support/shell';

vi.mock('../../web/src/features/detections/editor/CodeEditor', () => ({
  CodeEditor: ({
    value,
    onChange,
    label,
    readOnly,
  }: {
    value: string;
    onChange?: (v: string) => void;
    label: string;
    readOnly?: boolean;
  }) => <textarea aria-label={label} value={value} readOnly={readOnly} onChange={(e) => onChange?.(e.currentTarget.value)} />,
  CodeDiff: () => null,
}));

afterEach(cleanup);

const STORED = `AnalysisType: rule
Filename: login.py
RuleID: Okta.Login
DisplayName: Okta login
Enabled: true
LogTypes: [Okta.SystemLog]
Severity: High
DedupPeriodMinutes: 30
Threshold: 2
Tags: [auth]
Reports:
  MITRE ATT&CK: ['TA0001:T1078']
  CIS: ['1.1']
OnlyUseBaseRiskScore: true
Tests:
  - Name: login
    ExpectedResult: true
    Log: { eventType: user.session.start }
    Mocks: [{ objectName: lookup, returnValue: 'x' }]
`;

describe('the form values and the document', () => {
  it('read a stored document and write it back with the keys the form does not show', () => {
    const values = valuesFromDocument(STORED, 'def rule(event):\n    return True\n');
    expect(values).toMatchObject({
      kind: 'rule',
      id: 'Okta.Login',
      severity: 'High',
      dedupPeriodMinutes: 30,
      threshold: 2,
      tags: ['auth'],
      mitre: ['TA0001:T1078'],
      reports: [{ key: 'CIS', values: ['1.1'] }],
      extra: { OnlyUseBaseRiskScore: true },
    });
    expect(values.tests[0]).toMatchObject({
      name: 'login',
      expectedResult: true,
      mocks: [{ objectName: 'lookup', returnValue: '"x"' }],
    });
    const written = documentFromValues(values);
    const doc = readYaml(written.yaml) as Record<string, unknown>;
    expect(doc).toMatchObject({
      AnalysisType: 'rule',
      RuleID: 'Okta.Login',
      Filename: 'okta_login.py',
      LogTypes: ['Okta.SystemLog'],
      Severity: 'High',
      DedupPeriodMinutes: 30,
      Threshold: 2,
      OnlyUseBaseRiskScore: true,
      Reports: { 'MITRE ATT&CK': ['TA0001:T1078'], CIS: ['1.1'] },
      Tests: [
        {
          Name: 'login',
          ExpectedResult: true,
          Log: { eventType: 'user.session.start' },
          Mocks: [{ objectName: 'lookup', returnValue: 'x' }],
        },
      ],
    });
    expect(written.body).toBe('def rule(event):\n    return True\n');
  });

  it('writes a policy with its resource types and a simple detection without Python', () => {
    const policy = documentFromValues({ ...emptyValues('policy'), id: 'S3.Public', resourceTypes: ['AWS.S3.Bucket'] });
    expect(readYaml(policy.yaml)).toMatchObject({
      AnalysisType: 'policy',
      PolicyID: 'S3.Public',
      ResourceTypes: ['AWS.S3.Bucket'],
    });
    const simple = documentFromValues({ ...emptyValues('simple'), id: 'Simple.One', logTypes: ['AWS.CloudTrail'] });
    expect(simple.body).toBeNull();
    expect(readYaml(simple.yaml)).toMatchObject({ Detection: [{ KeyPath: 'eventName', Condition: 'Equals' }] });
    expect(() => documentFromValues({ ...emptyValues('simple'), id: 'x', simpleBody: '- a' })).toThrow(
      'There is an error in your syntax.',
    );
  });

  it('leaves the alert fields out when Create Alert is off', () => {
    const doc = readYaml(
      documentFromValues({ ...emptyValues('rule'), id: 'Quiet', logTypes: ['A.B'], createAlert: false, outputIds: ['slack'] })
        .yaml,
    ) as Record<string, unknown>;
    expect(doc.CreateAlert).toBe(false);
    expect(doc).not.toHaveProperty('DedupPeriodMinutes');
    expect(doc).not.toHaveProperty('OutputIds');
  });

  it('refuses a test whose event does not parse', () => {
    const values = { ...emptyValues('rule'), id: 'x', tests: [{ name: 't', expectedResult: true, resource: '{', mocks: [] }] };
    expect(() => documentFromValues(values)).toThrow(/failed to parse test case/);
  });

  it('appends a function template once', () => {
    const once = withTemplate('def rule(event):\n    return True\n', 'title');
    expect(once).toMatch(/return True\n\n\ndef title\(event\):/);
    expect(withTemplate(once, 'title')).toBe(once);
  });
});

describe('python completions', () => {
  const source = 'def rule(event):\n    return event.';
  it('offers the event methods after the argument and a dot', () => {
    expect(pythonCompletions('    return event.', source, []).map((c) => c.label)).toEqual([
      'get',
      'deep_get',
      'deep_walk',
      'udm',
      'lookup',
    ]);
    expect(pythonCompletions('    return event.de', source, []).map((c) => c.label)).toEqual(['deep_get', 'deep_walk']);
    expect(pythonCompletions('    x = other.', source, [])).toEqual([]);
    expect(pythonCompletions('    resource.g', 'def policy(resource):\n', []).map((c) => c.label)).toEqual(['get']);
  });
  it("offers the global helpers' names after import and as names", () => {
    expect(pythonCompletions('from panther_', source, ['panther_base_helpers', 'aws_helpers']).map((c) => c.label)).toEqual([
      'panther_base_helpers',
    ]);
    expect(pythonCompletions('import ', source, ['a_helpers', 'b_helpers']).map((c) => c.label)).toEqual([
      'a_helpers',
      'b_helpers',
    ]);
  });
});

function renderForm(overrides: Partial<DetectionFormValues> = {}, props: Partial<Parameters<typeof DetectionForm>[0]> = {}) {
  const onSave = vi.fn(async (_values: DetectionFormValues) => undefined);
  renderInApp(
    <DetectionForm
      initialValues={{ ...emptyValues('rule'), ...overrides }}
      isNew
      readOnly={false}
      logTypeOptions={['AWS.CloudTrail', 'Okta.SystemLog']}
      onSave={onSave}
      onRunTests={async () => ({ message: 'All tests passed!', results: [] })}
      {...props}
    />,
  );
  return onSave;
}

describe('the detection form', () => {
  it('hides severity, dedup, threshold and destinations when Create Alert is off', async () => {
    const user = userEvent.setup();
    renderForm();
    expect(screen.getByTestId('alert-fields')).toBeTruthy();
    expect(screen.getAllByLabelText('Severity')[0]).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Create Alert' }));
    expect(screen.queryByTestId('alert-fields')).toBeNull();
    expect(screen.queryAllByLabelText('Severity')).toHaveLength(0);
    await user.click(screen.getByRole('switch', { name: 'Create Alert' }));
    expect(screen.getAllByLabelText('Severity')[0]).toBeTruthy();
  });

  it('says when the destinations could not be loaded', async () => {
    renderForm({}, { destinationsFailed: true });
    expect(await screen.findByText('There was a problem loading your destinations!')).toBeTruthy();
  });

  it('labels the function editor and inserts the templates', async () => {
    const user = userEvent.setup();
    renderForm();
    const editor = screen.getByRole('textbox', { name: 'Rule Function' }) as HTMLTextAreaElement;
    expect(editor.value).toMatch(/^def rule\(event\):/);
    await user.click(screen.getByRole('button', { name: 'dedup' }));
    await user.click(screen.getByRole('button', { name: 'alert_context' }));
    expect(editor.value).toMatch(/def dedup\(event\):/);
    expect(editor.value).toMatch(/def alert_context\(event\):/);
    cleanup();
    renderForm({ kind: 'policy', body: 'def policy(resource):\n    return True\n' });
    expect(screen.getByRole('textbox', { name: 'Policy Function' })).toBeTruthy();
  });

  it('adds tags by the tag rules and maps a MITRE tactic and technique', async () => {
    const user = userEvent.setup();
    const onSave = renderForm({ id: 'My.Rule', logTypes: ['AWS.CloudTrail'] });
    const tags = screen.getByRole('textbox', { name: 'Tags' });
    await user.type(tags, 'auth,  ,cloud{Enter}auth{Enter}');
    expect(screen.getByText('Value exists already')).toBeTruthy();

    fireEvent.click(screen.getAllByLabelText('Tactic')[0]);
    fireEvent.click(await screen.findByRole('option', { name: 'Initial Access (TA0001)' }));
    fireEvent.click(screen.getAllByLabelText('Technique')[0]);
    fireEvent.click(await screen.findByRole('option', { name: 'Valid Accounts (T1078)' }));
    await user.click(screen.getByRole('button', { name: 'Add mapping' }));
    expect(screen.getByText('Initial Access (TA0001) › Valid Accounts (T1078)')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave.mock.calls[0][0]).toMatchObject({ tags: ['auth', 'cloud'], mitre: ['TA0001:T1078'] });
  });

  it('requires the id and a log type before saving, and shows why a save failed', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(async () => {
      throw new Error('Someone saved this detection after you opened it.');
    });
    renderForm({}, { onSave });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(screen.getByText('Select at least 1 log type')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: /Rule ID/ }), 'Bad id');
    expect(await screen.findByText(/Must start with a letter or digit/)).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: /Rule ID/ }));
    await user.type(screen.getByRole('textbox', { name: /Rule ID/ }), 'Good.Id');
    fireEvent.click(screen.getAllByLabelText(/Log Types/)[0]);
    fireEvent.click(await screen.findByRole('option', { name: 'AWS.CloudTrail' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Someone saved this detection after you opened it.')).toBeTruthy();
  });

  it('read-only: no Save, no templates, fields locked', () => {
    renderForm({ id: 'R' }, { readOnly: true, isNew: false, readOnlyReason: 'Read only here' });
    expect(screen.getByText('Read only here')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'title' })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Rule Function' }) as HTMLTextAreaElement).readOnly).toBe(true);
  });
});

describe('the new detection page', () => {
  it('reads its kind and a MITRE mapping from the query, and a clone gets a new id', () => {
    expect(kindOfParams(new URLSearchParams('type=policy'))).toBe('policy');
    expect(kindOfParams(new URLSearchParams('type=rule&isSimpleDetection=true'))).toBe('simple');
    expect(kindOfParams(new URLSearchParams(''))).toBeUndefined();
    expect(newDetectionPath({ type: 'rule', mitreTactic: 'TA0001' })).toBe('/build/detections/new/?type=rule&mitreTactic=TA0001');
    expect(detectionPath('a/b', 'POLICY')).toBe('/build/detections/policies/a%2Fb/');
    expect(editDetectionPath('Okta.Login', 'RULE')).toBe('/build/detections/rules/Okta.Login/edit/');
    const clone = cloneValues(valuesFromDocument(STORED, 'def rule(e):\n    return 1\n'));
    expect(clone).toMatchObject({ id: 'Okta.Login.Copy', displayName: 'Okta login (copy)', enabled: false });
  });

  const optionsMock = {
    request: { query: EDITOR_OPTIONS_QUERY },
    result: {
      data: {
        schemas: {
          __typename: 'SchemaConnection',
          edges: [{ __typename: 'SchemaEdge', node: { __typename: 'Schema', name: 'AWS.CloudTrail' } }],
        },
        detections: { __typename: 'DetectionConnection', edges: [] },
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };

  it('offers the four kinds, then the form titled for the kind chosen', async () => {
    const user = userEvent.setup();
    renderWithApi(<AppRoutes />, { at: '/build/detections/new/', permissions: ['RuleModify'], mocks: [optionsMock] });
    expect(await screen.findByRole('heading', { name: 'New Detection' }, { timeout: 5000 })).toBeTruthy();
    for (const kind of ['Rule', 'Scheduled Rule', 'Policy', 'Simple Detection'])
      expect(screen.getByRole('button', { name: kind })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Rule' }));
    expect(await screen.findByRole('heading', { name: 'New Rule' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Rule Function' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('New Detection · Caracal'));
  });

  it('is refused to a user who may only read rules', async () => {
    renderWithApi(<AppRoutes />, { at: '/build/detections/new/', permissions: ['RuleRead'], mocks: [optionsMock] });
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'New Detection' })).toBeNull());
    expect(await screen.findByText(/permission/i, {}, { timeout: 5000 })).toBeTruthy();
  });

  it('opens the editor read-only to a user with RuleRead only', async () => {
    const detectionMock = {
      request: { query: EDITOR_DETECTION_QUERY, variables: { id: 'Okta.Login' } },
      result: {
        data: {
          detection: {
            __typename: 'Detection',
            id: 'Okta.Login',
            analysisType: 'RULE',
            displayName: 'Okta login',
            enabled: true,
            severity: 'HIGH',
            logTypes: ['Okta.SystemLog'],
            tags: [],
            isSimpleDetection: false,
            managed: false,
            yaml: STORED,
            body: 'def rule(event):\n    return True\n',
            versionId: 3,
            createdAt: '2026-11-20T00:00:00Z',
            createdBy: 'ada',
            lastModified: '2026-11-21T00:00:00Z',
            lastModifiedBy: 'ada',
          },
        },
      },
      maxUsageCount: Number.POSITIVE_INFINITY,
    };
    renderWithApi(<AppRoutes />, {
      at: '/build/detections/rules/Okta.Login/edit/',
      permissions: ['RuleRead'],
      mocks: [detectionMock, optionsMock],
    });
    expect(await screen.findByRole('heading', { name: 'Edit Okta login' }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('You do not have permission to edit this detection: it is shown read-only.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    const tests = screen.getByText('Unit Tests').closest('div')!;
    expect(within(tests.parentElement!).queryByRole('button', { name: '+ Add new unit test' })).toBeNull();
  });
});

describe('the code editor', () => {
  it('indents Python by 4 and YAML or JSON by 2', async () => {
    const { tabSizeOf } = await vi.importActual<typeof import('../../web/src/features/detections/editor/CodeEditor')>(
      '../../web/src/features/detections/editor/CodeEditor',
    );
    expect(tabSizeOf('python')).toBe(4);
    expect(tabSizeOf('yaml')).toBe(2);
    expect(tabSizeOf('json')).toBe(2);
  });
});

describe('the rules/ and policies/ sections', () => {
  it('lead to the detections list', async () => {
    renderWithApi(<AppRoutes />, { at: '/build/detections/policies/', permissions: ['PolicyRead'] });
    await waitFor(() => expect(document.title).toBe('Detections · Caracal'), { timeout: 5000 });
  });
});
