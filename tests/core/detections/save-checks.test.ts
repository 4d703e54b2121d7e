// The save rules of detections beyond their YAML shape: ids usable as keys and module names, links that open
// only web pages (as a browser reads them), and log types that exist.
import { describe, expect, it } from 'vitest';
import {
  detectionIdProblem,
  ID_CHARACTERS,
  linkProblem,
  MAX_ID_LENGTH,
  problemLine,
  saveProblems as problemsOf,
} from '../../../core/detections';

/** Each problem as the line bulk upload reports. */
const saveProblems = (...args: Parameters<typeof problemsOf>) => problemsOf(...args).map(problemLine);

describe('detection ids', () => {
  it.each(['AWS.CloudTrail.RootActivity', 'panther_base_helpers', 'Okta-Admin.2', '1Password.Login', 'a'])('accepts %s', (id) =>
    expect(detectionIdProblem(id)).toBeUndefined(),
  );

  it.each(['../../etc/passwd', 'rules/x', 'a b', '.hidden', '-flag', 'x\u0000', '<script>', 'é', '', 'a\\b', 'x%2F'])(
    'refuses %j',
    (id) => expect(detectionIdProblem(id)).toBe(ID_CHARACTERS),
  );

  it('refuses ids longer than the limit', () => {
    expect(detectionIdProblem('a'.repeat(MAX_ID_LENGTH))).toBeUndefined();
    expect(detectionIdProblem('a'.repeat(MAX_ID_LENGTH + 1))).toBe(`Must be at most ${MAX_ID_LENGTH} characters`);
  });
});

describe('links', () => {
  it.each([
    'https://example.com/runbook',
    'HTTP://example.com',
    'Check the user with IT, then reset the password.',
    'See the wiki page on account takeover',
    '',
  ])('accepts %j', (value) => expect(linkProblem(value)).toBeUndefined());

  it.each([
    ['javascript:alert(document.cookie)', 'javascript'],
    ['JavaScript:alert(1)', 'javascript'],
    ['  javascript:alert(1)', 'javascript'],
    ['\u0001javascript:alert(1)', 'javascript'],
    ['java\tscript:alert(1)', 'javascript'],
    ['java\nscript:alert(1)', 'javascript'],
    ['javascript: alert(1)', 'javascript'],
    ['data:text/html,<script>alert(1)</script>', 'data'],
    ['vbscript:msgbox', 'vbscript'],
    ['file:///etc/passwd', 'file'],
  ])('refuses %j', (value, scheme) => expect(linkProblem(value)).toBe(`Must be an http or https link, not ${scheme}:`));
});

describe('saveProblems', () => {
  const known = new Set(['AWS.CloudTrail', 'Custom.App']);

  it('names every problem with its key', () => {
    const spec = {
      AnalysisType: 'rule',
      RuleID: '../x',
      Reference: 'javascript:alert(1)',
      Runbook: 'data:text/html,x',
      LogTypes: ['AWS.CloudTrail', 'Nope.Log', 'Custom.App'],
    };
    expect(saveProblems('rule', spec, known)).toEqual([
      `RuleID: ${ID_CHARACTERS}`,
      'Reference: Must be an http or https link, not javascript:',
      'Runbook: Must be an http or https link, not data:',
      'LogTypes: Unknown log type: Nope.Log',
    ]);
  });

  it('checks the id key of each type, a derived rule’s base, and data models’ log types', () => {
    expect(saveProblems('policy', { PolicyID: 'a/b' }, known)).toEqual([`PolicyID: ${ID_CHARACTERS}`]);
    expect(saveProblems('global', { GlobalID: 'helpers; import os' }, known)).toEqual([`GlobalID: ${ID_CHARACTERS}`]);
    expect(saveProblems('rule', { RuleID: 'Derived', BaseDetection: '../base' }, known)).toEqual([
      `BaseDetection: ${ID_CHARACTERS}`,
    ]);
    expect(saveProblems('datamodel', { DataModelID: 'Model', LogTypes: ['Gone.Log'] }, known)).toEqual([
      'LogTypes: Unknown log type: Gone.Log',
    ]);
  });

  it('finds nothing in a sound rule', () => {
    const spec = { RuleID: 'Sound.Rule', Reference: 'https://example.com', Runbook: 'Call the owner.', LogTypes: ['Custom.App'] };
    expect(saveProblems('rule', spec, known)).toEqual([]);
  });
});
