// @vitest-environment jsdom
// Scheduled queries in the console: the form's values to the scheduled_query document and back (keys it does
// not show kept), the save checks inline (a query returning events needs a LIMIT, a query without a time
// placeholder is flagged, the timeout's bounds, the cron schedule's five fields), the rates offered, and a
// scheduled rule choosing its scheduled queries from those that exist, each shown with its schedule and query.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMIT_REQUIRED, NO_TIME_PLACEHOLDER } from '../../core/detections';
import { readYaml } from '../../core/yaml';
import { emptyValues, type DetectionFormValues } from '../../web/src/features/detections/editor/detectionDocument';
import { DetectionForm } from '../../web/src/features/detections/editor/DetectionForm';
import { ScheduledQueryForm } from '../../web/src/features/detections/scheduled/ScheduledQueryForm';
import {
  DEFAULT_CRON,
  RATE_OPTIONS,
  emptyScheduledQuery,
  scheduledQueryChecks,
  scheduledQueryValues,
  scheduledQueryYaml,
  type ScheduledQueryValues,
} from '../../web/src/features/detections/scheduled/scheduledQueryDocument';
import { renderInApp } from './support/render';

vi.mock('../../web/src/features/detections/editor/CodeEditor', () => ({
  CodeEditor: ({ value, label }: { value: string; label: string }) => <textarea aria-label={label} value={value} readOnly />,
  CodeDiff: () => null,
}));

Element.prototype.scrollIntoView ??= () => undefined;
afterEach(cleanup);

const STORED = `AnalysisType: scheduled_query
QueryName: Hourly Root Logins
Enabled: true
Description: Root console logins
AthenaQuery: |
  SELECT * FROM panther_logs.public.aws_cloudtrail
  WHERE p_occurs_since('1 hour') AND useridentity.type = 'Root'
  LIMIT 100
Schedule:
  CronExpression: 0 * * * *
  TimeoutMinutes: 5
Lookback: true
LookbackWindowSeconds: 7200
`;

describe('the scheduled query document', () => {
  it('reads a stored query and writes it back under the same key, keeping what the form does not show', () => {
    const values = scheduledQueryValues(STORED);
    expect(values).toMatchObject({
      name: 'Hourly Root Logins',
      language: 'SQL',
      scheduleMode: 'cron',
      cron: { minutes: '0', hours: '*', days: '*', months: '*', weekDays: '*' },
      timeoutMinutes: 5,
    });
    const doc = readYaml(scheduledQueryYaml({ ...values, timeoutMinutes: 6 })) as Record<string, unknown>;
    expect(doc.AthenaQuery).toContain('LIMIT 100');
    expect(doc.Query).toBeUndefined();
    expect(doc.Schedule).toEqual({ CronExpression: '0 * * * *', TimeoutMinutes: 6 });
    expect(doc.LookbackWindowSeconds).toBe(7200);
    expect(doc.Lookback).toBe(true);
  });

  it('starts from the defaults: rate 15, timeout 2, cron 0 0 * * *', () => {
    const values = emptyScheduledQuery();
    expect(RATE_OPTIONS).toEqual([15, 30, 60, 180, 720, 1440]);
    expect(values.rateMinutes).toBe(15);
    expect(values.timeoutMinutes).toBe(2);
    expect(DEFAULT_CRON).toBe('0 0 * * *');
    const doc = readYaml(scheduledQueryYaml({ ...values, name: 'Q' })) as Record<string, unknown>;
    expect(doc).toMatchObject({
      AnalysisType: 'scheduled_query',
      QueryName: 'Q',
      Schedule: { RateMinutes: 15, TimeoutMinutes: 2 },
    });
  });

  it('checks as the server does: LIMIT, time placeholder, timeout, cron', () => {
    const base: ScheduledQueryValues = { ...emptyScheduledQuery(), name: 'Q' };
    expect(scheduledQueryChecks(base).errors).toEqual({});
    const noLimit = scheduledQueryChecks({ ...base, query: 'SELECT * FROM panther_logs.public.aws_cloudtrail' });
    expect(noLimit.errors.query).toBe(LIMIT_REQUIRED);
    expect(noLimit.warnings).toEqual([NO_TIME_PLACEHOLDER]);
    expect(noLimit.requiresLimit).toBe(true);
    const grouped = scheduledQueryChecks({
      ...base,
      query:
        "SELECT eventname, count(*) FROM panther_logs.public.aws_cloudtrail WHERE p_occurs_since('1 day') GROUP BY eventname",
    });
    expect(grouped.errors.query).toBeUndefined();
    expect(grouped.requiresLimit).toBe(false);
    expect(scheduledQueryChecks({ ...base, timeoutMinutes: 11 }).errors.timeout).toBe('TimeoutMinutes must be from 1 to 10');
    const badCron = scheduledQueryChecks({ ...base, scheduleMode: 'cron', cron: { ...base.cron, hours: '25' } });
    expect(badCron.errors.schedule).toBe("CronExpression hour '25' must be from 0 to 23");
    const cron = scheduledQueryChecks({ ...base, scheduleMode: 'cron' }, Date.UTC(2026, 10, 24, 9, 0));
    expect(cron.nextRun).toBe(Date.UTC(2026, 10, 25, 0, 0));
  });
});

describe('the scheduled query form', () => {
  it('shows the checks as the query is typed, builds the cron from its fields, and saves', async () => {
    const onSave = vi.fn(async (_v: ScheduledQueryValues) => undefined);
    renderInApp(<ScheduledQueryForm initialValues={emptyScheduledQuery()} isNew readOnly={false} onSave={onSave} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Query Name' }), { target: { value: 'Root Logins' } });
    const query = screen.getByRole('textbox', { name: 'SQL query' });
    fireEvent.change(query, { target: { value: 'SELECT * FROM panther_logs.public.aws_cloudtrail' } });
    const checks = screen.getByRole('status', { name: 'Query checks' });
    expect(within(checks).getByText(LIMIT_REQUIRED)).toBeTruthy();
    expect(within(checks).getByText(NO_TIME_PLACEHOLDER)).toBeTruthy();
    fireEvent.change(query, {
      target: { value: "SELECT * FROM panther_logs.public.aws_cloudtrail WHERE p_occurs_since('1 hour') LIMIT 10" },
    });
    expect(within(checks).queryByText(LIMIT_REQUIRED)).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Cron expression' }));
    const cron = screen.getByRole('group', { name: 'Cron schedule' });
    for (const label of ['Minutes', 'Hours', 'Days', 'Months', 'Week days'])
      expect(within(cron).getByRole('textbox', { name: label })).toBeTruthy();
    fireEvent.change(within(cron).getByRole('textbox', { name: 'Hours' }), { target: { value: '24' } });
    expect(await screen.findByText("CronExpression hour '24' must be from 0 to 23")).toBeTruthy();
    fireEvent.change(within(cron).getByRole('textbox', { name: 'Hours' }), { target: { value: '*/6' } });
    expect(screen.getByTestId('next-run').textContent).toMatch(/^Next run: /);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    const doc = readYaml(scheduledQueryYaml(onSave.mock.calls[0][0])) as Record<string, unknown>;
    expect(doc.Schedule).toEqual({ CronExpression: '0 */6 * * *', TimeoutMinutes: 2 });
  });

  it('shows the server’s refusal and keeps the form', async () => {
    const onSave = vi.fn(async () => {
      throw new Error('Query: The LIMIT clause asks for 50000 rows; a scheduled query may return at most 10,000');
    });
    renderInApp(
      <ScheduledQueryForm initialValues={{ ...emptyScheduledQuery(), name: 'Q' }} isNew readOnly={false} onSave={onSave} />,
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'Run every' }), { target: { value: 'Every hour' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('at most 10,000');
  });
});

describe('a scheduled rule’s scheduled queries', () => {
  it('are chosen from those that exist, each shown with its schedule and query', () => {
    renderInApp(
      <DetectionForm
        initialValues={
          {
            ...emptyValues('scheduled_rule'),
            id: 'Sched.Rule',
            scheduledQueries: ['Hourly Root Logins', 'Gone'],
          } as DetectionFormValues
        }
        isNew={false}
        readOnly={false}
        logTypeOptions={[]}
        onSave={async () => undefined}
        onRunTests={async () => ({ message: '', results: [] })}
        scheduledQueryOptions={[
          {
            id: 'Hourly Root Logins',
            enabled: true,
            query: 'SELECT 1 LIMIT 1',
            queryLanguage: 'SQL',
            schedule: { rateMinutes: null, cronExpression: '0 * * * *', timeoutMinutes: 5 },
          },
        ]}
        scheduledQueryHref={(id) => `/q/${id}/`}
        newScheduledQueryHref="/q/new/"
      />,
    );
    const found = screen.getByRole('region', { name: 'Scheduled query Hourly Root Logins' });
    expect(within(found).getByText('cron 0 * * * * (UTC), timeout 5 min')).toBeTruthy();
    expect(within(found).getByText('SELECT 1 LIMIT 1')).toBeTruthy();
    expect(within(found).getByRole('link', { name: 'Hourly Root Logins' }).getAttribute('href')).toBe('/q/Hourly Root Logins/');
    expect(
      within(screen.getByRole('region', { name: 'Scheduled query Gone' })).getByText('No scheduled query named Gone'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New scheduled query' })).toBeTruthy();
  });
});
