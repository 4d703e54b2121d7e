import { describe, expect, it } from 'vitest';
import {
  customSchemaNameProblem,
  referenceUrlProblem,
  SCHEMA_FORM_MESSAGES,
  specTextProblem,
} from '../../../core/schemas/naming';

describe('custom schema name', () => {
  it('is required', () => {
    expect(customSchemaNameProblem('')).toBe('This field is required');
    expect(customSchemaNameProblem('   ')).toBe(SCHEMA_FORM_MESSAGES.required);
    expect(customSchemaNameProblem(undefined)).toBe('This field is required');
    expect(customSchemaNameProblem(42)).toBe('This field is required');
  });

  it('is at most 248 characters with the prefix applied', () => {
    const longWord = `A${'b'.repeat(240)}`;
    expect(customSchemaNameProblem(longWord)).toBeNull();
    expect(customSchemaNameProblem(`${longWord}cc`)).toBe('Must be at most 248 characters');
  });

  it('starts with a capital', () => {
    expect(customSchemaNameProblem('myLogs')).toBe('Must start with a capital letter');
  });

  it('is capitalised alphanumeric words separated by dots', () => {
    expect(customSchemaNameProblem('My.logs')).toBe('Must be capitalized alphanumeric words separated by dots');
    expect(customSchemaNameProblem('My-Logs')).toBe('Must be capitalized alphanumeric words separated by dots');
    expect(customSchemaNameProblem('My..Logs')).toBe('Must be capitalized alphanumeric words separated by dots');
    expect(customSchemaNameProblem('My.Logs<script>')).toBe('Must be capitalized alphanumeric words separated by dots');
    expect(customSchemaNameProblem('Acme.Firewall.V2')).toBeNull();
  });

  it('has at most 6 words, Custom included', () => {
    expect(customSchemaNameProblem('A.B.C.D.E')).toBeNull();
    expect(customSchemaNameProblem('A.B.C.D.E.F')).toBe('Must have at most 6 words separated by dots');
    expect(customSchemaNameProblem('Custom.A.B.C.D.E')).toBeNull();
  });

  it('must not duplicate an existing name, ignoring case, with the prefix applied', () => {
    const existing = ['AWS.CloudTrail', 'Custom.Acme.Firewall'];
    expect(customSchemaNameProblem('Acme.FIREWALL', existing)).toBe('You already have a Schema with the same name');
    expect(customSchemaNameProblem('Custom.Acme.Firewall', existing)).toBe(SCHEMA_FORM_MESSAGES.duplicate);
    expect(customSchemaNameProblem('Acme.Proxy', existing)).toBeNull();
  });
});

describe('reference URL', () => {
  it('is optional and must be a URL', () => {
    expect(referenceUrlProblem('')).toBeNull();
    expect(referenceUrlProblem(null)).toBeNull();
    expect(referenceUrlProblem('https://docs.example.com/logs')).toBeNull();
    expect(referenceUrlProblem('docs.example.com')).toBe('Must be a valid URL');
    expect(referenceUrlProblem('javascript:alert(1)')).toBe('Must be a valid URL');
    expect(referenceUrlProblem(7)).toBe(SCHEMA_FORM_MESSAGES.referenceURL);
  });
});

describe('spec', () => {
  it('is required unless field discovery is enabled', () => {
    expect(specTextProblem('', false)).toBe('This field is required');
    expect(specTextProblem('  \n', false)).toBe('This field is required');
    expect(specTextProblem('', true)).toBeNull();
    expect(specTextProblem('fields: []', false)).toBeNull();
  });
});
