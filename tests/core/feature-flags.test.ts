import { describe, expect, it } from 'vitest';
import {
  FEATURE_FLAG_DEFAULTS,
  featureFlagProblems,
  isFeatureEnabled,
  parseFeatureFlags,
  resolveFeatureFlags,
} from '../../core/feature-flags';

describe('feature flags', () => {
  it('names the flags of the specification, the notification centre on and the others at control by default', () => {
    expect(FEATURE_FLAG_DEFAULTS).toEqual({
      ENABLE_NOTIFICATION_CENTER: 'on',
      ENABLE_CORRELATION_RULE_FULL_PAGE_VIEW: 'control',
      ENABLE_CUSTOM_DASHBOARDS: 'control',
      ENABLE_ALERT_RBAC_LOG_TYPES: 'control',
      ENABLE_TORQ_DESTINATION: 'control',
    });
    const flags = resolveFeatureFlags();
    expect(isFeatureEnabled(flags, 'ENABLE_NOTIFICATION_CENTER')).toBe(true);
    expect(isFeatureEnabled(flags, 'ENABLE_CUSTOM_DASHBOARDS')).toBe(false);
  });

  it('takes the deployment’s choice over the default: "on" enables, "control" is off', () => {
    const flags = resolveFeatureFlags({ ENABLE_NOTIFICATION_CENTER: 'control', ENABLE_CUSTOM_DASHBOARDS: 'on' });
    expect(flags).toEqual({ ...FEATURE_FLAG_DEFAULTS, ENABLE_NOTIFICATION_CENTER: 'control', ENABLE_CUSTOM_DASHBOARDS: 'on' });
    expect(isFeatureEnabled(flags, 'ENABLE_NOTIFICATION_CENTER')).toBe(false);
    expect(isFeatureEnabled(flags, 'ENABLE_CUSTOM_DASHBOARDS')).toBe(true);
  });

  it('ignores unknown flags and values, and unreadable JSON, keeping the defaults', () => {
    expect(resolveFeatureFlags({ ENABLE_NOTIFICATION_CENTER: 'off', SOMETHING_ELSE: 'on' })).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(resolveFeatureFlags(null)).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(parseFeatureFlags(undefined)).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(parseFeatureFlags('{not json')).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(parseFeatureFlags('{"ENABLE_CUSTOM_DASHBOARDS":"on"}').ENABLE_CUSTOM_DASHBOARDS).toBe('on');
  });

  it('names every problem of a deployment’s choices', () => {
    expect(featureFlagProblems({ ENABLE_CUSTOM_DASHBOARDS: 'on', ENABLE_NOTIFICATION_CENTER: 'control' })).toEqual([]);
    expect(featureFlagProblems({ ENABLE_CUSTOM_DASHBOARDS: true, NOPE: 'on' })).toEqual([
      'featureFlags.ENABLE_CUSTOM_DASHBOARDS must be "on" or "control"',
      "featureFlags names an unknown flag 'NOPE'",
    ]);
    expect(featureFlagProblems(['on'])).toEqual(['featureFlags must map flag names to "on" or "control"']);
  });
});
