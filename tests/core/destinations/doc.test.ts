// docs/destinations.md names every destination type with its fields, marking exactly the secret ones.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESTINATION_TYPES, DESTINATION_TYPE_INFO, MASKED_SECRET } from '../../../core/destinations';

const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'destinations.md'), 'utf8');
const rowOf = (type: string) => doc.split('\n').find((line) => line.includes(`| \`${type}\` |`));

describe('docs/destinations.md', () => {
  it.each(DESTINATION_TYPES)('lists %s with its fields, the secret ones marked', (type) => {
    const row = rowOf(type);
    expect(row, `no row for ${type}`).toBeDefined();
    expect(row).toContain(`| ${DESTINATION_TYPE_INFO[type].title} |`);
    const cells = row!
      .split('|')[3]
      .split(';')
      .map((cell) => cell.trim());
    expect(cells.map((cell) => /^`([A-Za-z]+)`/.exec(cell)?.[1])).toEqual(DESTINATION_TYPE_INFO[type].fields.map((f) => f.name));
    cells.forEach((cell, i) => expect(cell.includes('**secret**')).toBe(DESTINATION_TYPE_INFO[type].fields[i].secret));
  });

  it('shows the masked placeholder the API answers', () => {
    expect(doc).toContain(`\`${MASKED_SECRET}\``);
  });
});
