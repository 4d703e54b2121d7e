// @vitest-environment jsdom
// Prose wraps between words: a value such as an email address or a sentence is never split mid-word just
// because the line ends ('lowe / r case letters'); only a word longer than the whole line is split.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Field } from '../../web/src/features/home/pieces';
import { HealthChecks, type SourceFigures } from '../../web/src/features/log-sources/SourceHealth';
import { renderInApp } from './support/render';

afterEach(cleanup);

function expectWrapsOnWords(element: HTMLElement) {
  const style = getComputedStyle(element);
  expect(style.wordBreak).not.toBe('break-all');
  expect(style.overflowWrap).toBe('break-word');
}

describe('prose', () => {
  it('on the home cards wraps between words', () => {
    renderInApp(
      <>
        <Field label="Email">admin@caracal.local</Field>
        <Field label="Passwords">At least 12 characters, with upper and lower case letters</Field>
      </>,
    );
    expectWrapsOnWords(screen.getByText('admin@caracal.local'));
    expectWrapsOnWords(screen.getByText(/lower case letters/));
  });

  it("in a source's health checks wraps between words", () => {
    const figures = {
      checkedAt: null,
      checks: [{ name: 'read', title: 'Can read the bucket', status: 'FAILED', message: 'Access denied reading the bucket' }],
    } as unknown as SourceFigures; // only the fields the checks list reads
    renderInApp(<HealthChecks figures={figures} />);
    expectWrapsOnWords(screen.getByText('Access denied reading the bucket'));
  });
});
