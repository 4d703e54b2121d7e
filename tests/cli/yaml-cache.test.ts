import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { YamlCache, yamlCacheFile } from '../../bin/commands/yaml-cache';
import { readYaml, YamlError } from '../../core/yaml';

const dirs: string[] = [];
const cacheFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-yaml-cache-'));
  dirs.push(dir);
  return join(dir, 'nested', 'yaml-values.json');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const RULE = 'AnalysisType: rule\nRuleID: A.B\nEnabled: on\nTests:\n  - Name: x\n    Log: {a: 1, b: [true, null]}\n';

describe("caracal test's YAML cache", () => {
  it('gives readYaml’s values, and on the next run serves them from the cache file', () => {
    const file = cacheFile();
    const first = new YamlCache(file);
    expect(first.read(RULE)).toEqual(readYaml(RULE));
    first.save();
    // Tamper with the stored value: a second run returning it proves the value came from the cache.
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { version: string; entries: Record<string, string> };
    const [key] = Object.keys(stored.entries);
    writeFileSync(file, JSON.stringify({ ...stored, entries: { [key]: JSON.stringify({ cached: true }) } }));
    const second = new YamlCache(file);
    expect(second.read(RULE)).toEqual({ cached: true });
    // Each read is a fresh copy: changing one value leaves the next read alone.
    (second.read(RULE) as Record<string, unknown>).cached = false;
    expect(second.read(RULE)).toEqual({ cached: true });
  });

  it('keeps neither invalid texts (their error every time) nor values JSON would change', () => {
    const file = cacheFile();
    const cache = new YamlCache(file);
    expect(() => cache.read('a: [1\n')).toThrow(YamlError);
    expect(() => cache.read('a: *x\n')).toThrow(/aliases are not allowed/);
    expect(cache.read('a: .inf\n')).toEqual({ a: Infinity });
    cache.save();
    expect(() => readFileSync(file)).toThrow();
    expect(() => new YamlCache(file).read('a: [1\n')).toThrow(YamlError);
  });

  it('ignores a cache file it cannot read or written by another reader version', () => {
    const file = cacheFile();
    const first = new YamlCache(file);
    first.read(RULE);
    first.save();
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, string> };
    const [key] = Object.keys(stored.entries);
    writeFileSync(file, JSON.stringify({ version: 'other', entries: { [key]: '{"cached":true}' } }));
    expect(new YamlCache(file).read(RULE)).toEqual(readYaml(RULE));
    writeFileSync(file, 'not json');
    expect(new YamlCache(file).read(RULE)).toEqual(readYaml(RULE));
  });

  it('keeps one file per folder, holding only what the last run of that folder read', () => {
    const dir = cacheFile().replace(/yaml-values\.json$/, 'values');
    const one = yamlCacheFile('/repo/one', dir);
    expect(one).not.toBe(yamlCacheFile('/repo/two', dir));
    expect(one).toBe(yamlCacheFile('/repo/one', dir));
    const first = new YamlCache(one);
    first.read(RULE);
    first.read('a: 1\n');
    first.save();
    const entries = () => Object.keys((JSON.parse(readFileSync(one, 'utf8')) as { entries: object }).entries).length;
    expect(entries()).toBe(2);
    // A run that read only one of them (a file changed or went) leaves only that one.
    const second = new YamlCache(one);
    second.read(RULE);
    second.save();
    expect(entries()).toBe(1);
    // A run reading exactly what the file holds writes nothing.
    writeFileSync(one, readFileSync(one, 'utf8').replace('{', '{"unread":1,'));
    const third = new YamlCache(one);
    third.read(RULE);
    third.save();
    expect(JSON.parse(readFileSync(one, 'utf8'))).toHaveProperty('unread', 1);
  });
});
