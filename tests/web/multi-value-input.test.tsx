// @vitest-environment jsdom
// The one multi-value and tag input, as the specification's validation rules say: a duplicate or an invalid
// entry is refused at entry, pasted text splits on commas and newlines, what was ignored is listed, comma
// splitting can be turned off; and the log source form uses it, showing every excluded-prefix problem.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { MultiValueInput } from '../../web/src/components/MultiValueInput';
import { LogSourceForm } from '../../web/src/features/log-sources/LogSourceForm';
import { addPasted } from '../../web/src/lib/forms/multiValue';
import { renderInApp } from './support/render';

afterEach(cleanup);

const isDigits = (entry: string) => (/^\d+$/.test(entry) ? undefined : 'digits only');

function Harness({ initial = [] }: { readonly initial?: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <MultiValueInput label="Accounts" value={value} onChange={setValue} rule={isDigits} />
      <output data-testid="value">{value.join('|')}</output>
    </>
  );
}

const shown = () => screen.getByTestId('value').textContent;

describe('the multi-value input', () => {
  it('adds an entry on comma or Enter, and refuses a duplicate or an invalid one at entry', async () => {
    const user = userEvent.setup();
    renderInApp(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Accounts' });
    await user.type(input, '111,222{Enter}');
    expect(shown()).toBe('111|222');
    await user.type(input, '111{Enter}');
    expect(screen.getByText('Value exists already')).toBeTruthy();
    expect(shown()).toBe('111|222');
    await user.clear(input);
    expect(screen.queryByText('Value exists already')).toBeNull();
    await user.type(input, 'abc,');
    expect(screen.getByText('Invalid value')).toBeTruthy();
    expect(shown()).toBe('111|222');
  });

  it('splits pasted text on commas and newlines, and lists the entries it ignored', async () => {
    const user = userEvent.setup();
    renderInApp(<Harness initial={['111']} />);
    await user.click(screen.getByRole('textbox', { name: 'Accounts' }));
    await user.paste('222, 333\n\n111\nabc,444 ,');
    expect(shown()).toBe('111|222|333|444');
    expect(screen.getByText('One or more invalid values were ignored: 111, abc')).toBeTruthy();
  });

  it('keeps commas in an entry once comma splitting is turned off', async () => {
    const user = userEvent.setup();
    function Free() {
      const [value, setValue] = useState<string[]>([]);
      return (
        <>
          <MultiValueInput label="Keys" value={value} onChange={setValue} />
          <output data-testid="value">{value.join('|')}</output>
        </>
      );
    }
    renderInApp(<Free />);
    await user.click(screen.getByRole('checkbox', { name: 'Split on commas (Keys)' }));
    await user.type(screen.getByRole('textbox', { name: 'Keys' }), 'a,b{Enter}');
    expect(shown()).toBe('a,b');
    expect(addPasted([], 'x,y\nz', { splitOnCommas: false }).values).toEqual(['x,y', 'z']);
  });
});

describe('the S3 source form', () => {
  it('refuses an invalid excluded prefix, and shows every excluded-prefix problem', async () => {
    const user = userEvent.setup();
    renderInApp(
      <LogSourceForm
        transport="aws-s3"
        choices={{ logTypes: [{ name: 'AWS.CloudTrail', managed: true }], crowdstrikeFdrEnabled: false, takenLabels: new Set() }}
        onSubmit={async () => undefined}
        onCancel={() => undefined}
      />,
    );
    const prefix = screen.getByRole('textbox', { name: /^Prefix$/ });
    await user.type(prefix, 'logs/');
    const excluded = screen.getByRole('textbox', { name: /^Excluded prefixes/ });
    await user.type(excluded, 'other/{Enter}');
    expect(screen.getByText('Invalid value')).toBeTruthy();
    await user.clear(excluded);
    await user.click(excluded);
    await user.paste('logs/a/,logs/b/');
    await user.clear(prefix);
    await user.type(prefix, 'data/');
    await waitFor(() => {
      expect(screen.getByText('logs/a/: Excluded prefix must start with the included prefix')).toBeTruthy();
      expect(screen.getByText('logs/b/: Excluded prefix must start with the included prefix')).toBeTruthy();
    });
  });
});
