import { describe, expect, it } from 'vitest';
import { resolveDestinations, type ResolutionTarget } from '../../../core/destinations/resolution';
import type { RoutableDestination } from '../../../core/destinations/types';

const destination = (id: string, overrides: Partial<RoutableDestination> = {}): RoutableDestination => ({
  id,
  alertTypes: ['ALERT', 'DETECTION_ERROR', 'SYSTEM_ERROR'],
  defaultForSeverity: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'],
  logTypes: [],
  ...overrides,
});
const ids = (list: readonly RoutableDestination[]) => list.map((item) => item.id);

const rule = (overrides: Partial<Extract<ResolutionTarget, { alertType: 'ALERT' }>> = {}): ResolutionTarget => ({
  alertType: 'ALERT',
  detectionType: 'RULE',
  severity: 'HIGH',
  logTypes: ['AWS.CloudTrail'],
  ...overrides,
});

describe('destination resolution', () => {
  it('uses explicit outputIds alone, whatever the severities, alert types and log types, dropping unknown ids', () => {
    const destinations = [
      destination('a'),
      destination('b', { defaultForSeverity: [], alertTypes: ['SYSTEM_ERROR'], logTypes: ['Okta.SystemLog'] }),
    ];
    expect(ids(resolveDestinations(destinations, rule({ outputIds: ['b', 'gone'] })))).toEqual(['b']);
    expect(ids(resolveDestinations(destinations, rule({ outputIds: ['gone'] })))).toEqual([]);
  });

  it('resolves by the rules when outputIds is empty or absent', () => {
    const destinations = [destination('a'), destination('b', { defaultForSeverity: ['LOW'] })];
    expect(ids(resolveDestinations(destinations, rule({ outputIds: [] })))).toEqual(['a']);
    expect(ids(resolveDestinations(destinations, rule()))).toEqual(['a']);
  });

  it('needs the alert type among the destination’s alertTypes', () => {
    const destinations = [
      destination('alerts', { alertTypes: ['ALERT'] }),
      destination('errors', { alertTypes: ['DETECTION_ERROR'] }),
    ];
    expect(ids(resolveDestinations(destinations, rule()))).toEqual(['alerts']);
    expect(ids(resolveDestinations(destinations, { alertType: 'DETECTION_ERROR', severity: 'HIGH' }))).toEqual(['errors']);
    expect(ids(resolveDestinations(destinations, { alertType: 'SYSTEM_ERROR', severity: 'HIGH' }))).toEqual([]);
  });

  it('needs the severity among the destination’s defaultForSeverity', () => {
    const destinations = [
      destination('high', { defaultForSeverity: ['HIGH', 'CRITICAL'] }),
      destination('none', { defaultForSeverity: [] }),
    ];
    expect(ids(resolveDestinations(destinations, rule({ severity: 'CRITICAL' })))).toEqual(['high']);
    expect(ids(resolveDestinations(destinations, rule({ severity: 'INFO' })))).toEqual([]);
    expect(ids(resolveDestinations(destinations, { alertType: 'SYSTEM_ERROR', severity: 'INFO' }))).toEqual([]);
  });

  it('rules and correlation rules need a log-type overlap when the destination lists log types', () => {
    const destinations = [destination('any'), destination('trail', { logTypes: ['AWS.CloudTrail', 'AWS.VPCFlow'] })];
    for (const detectionType of ['RULE', 'CORRELATION_RULE', 'SCHEDULED_RULE', 'DERIVED_RULE'] as const) {
      expect(ids(resolveDestinations(destinations, rule({ detectionType, logTypes: ['AWS.VPCFlow'] })))).toEqual([
        'any',
        'trail',
      ]);
      expect(ids(resolveDestinations(destinations, rule({ detectionType, logTypes: ['Okta.SystemLog'] })))).toEqual(['any']);
      expect(ids(resolveDestinations(destinations, rule({ detectionType, logTypes: [] })))).toEqual(['any']);
    }
  });

  it('excludes policies from a destination that lists log types', () => {
    const destinations = [destination('any'), destination('trail', { logTypes: ['AWS.CloudTrail'] })];
    expect(ids(resolveDestinations(destinations, rule({ detectionType: 'POLICY', logTypes: ['AWS.CloudTrail'] })))).toEqual([
      'any',
    ]);
  });

  it('resolves detection and system errors by alert types and severity alone, ignoring log types', () => {
    const destinations = [
      destination('trail', { logTypes: ['AWS.CloudTrail'] }),
      destination('low', { defaultForSeverity: ['LOW'] }),
    ];
    expect(ids(resolveDestinations(destinations, { alertType: 'DETECTION_ERROR', severity: 'HIGH' }))).toEqual(['trail']);
    expect(ids(resolveDestinations(destinations, { alertType: 'SYSTEM_ERROR', severity: 'LOW' }))).toEqual(['trail', 'low']);
  });
});
