// @vitest-environment jsdom
// A detection's versions panel: every version with who saved it and when, two chosen for the diff (their
// content loaded), and Restore asking first, then saving the chosen version's content as a new one. And the
// editor's leave guard: a navigation away with unsaved changes waits for Confirm.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VersionsPanel } from '../../web/src/features/detections/versions/VersionsPanel';
import { useEditorLeaveGuard } from '../../web/src/screens/Detections/useEditorLeaveGuard';
import { renderInApp } from './support/render';

vi.mock('../../web/src/features/detections/editor/CodeEditor', () => ({
  CodeEditor: () => null,
  CodeDiff: ({ original, modified, label }: { original: string; modified: string; label: string }) => (
    <pre aria-label={label}>{`${original}=>${modified}`}</pre>
  ),
}));

afterEach(cleanup);

const versions = [
  { version: 3, enabled: true, lastModified: '2026-11-23T10:00:00Z', lastModifiedBy: 'ada' },
  { version: 2, enabled: false, lastModified: '2026-11-22T10:00:00Z', lastModifiedBy: 'grace' },
  { version: 1, enabled: true, lastModified: '2026-11-21T10:00:00Z', lastModifiedBy: 'ada' },
];
const content = (v: number) => ({ yaml: `Severity: v${v}`, body: `def rule(e):\n    return ${v}\n` });

describe('the versions panel', () => {
  it('compares the previous and current versions first, then any two chosen', async () => {
    const user = userEvent.setup();
    const loadVersion = vi.fn(async (v: number) => content(v));
    renderInApp(<VersionsPanel versions={versions} current={3} loadVersion={loadVersion} />);
    expect(screen.getByText('grace')).toBeTruthy();
    const diff = await screen.findByLabelText('Differences between version 2 and version 3');
    expect(diff.textContent).toBe('def rule(e):\n    return 2\n=>def rule(e):\n    return 3\n');
    await user.click(screen.getByRole('radio', { name: 'Compare version 1 as the old side' }));
    expect((await screen.findByLabelText('Differences between version 1 and version 3')).textContent).toContain('return 1');
    expect(loadVersion.mock.calls.map((c) => c[0]).sort()).toEqual([1, 2, 3]);
    await user.click(screen.getByText('YAML'));
    expect(screen.getByLabelText('Differences between version 1 and version 3').textContent).toBe('Severity: v1=>Severity: v3');
    expect(screen.queryByRole('button', { name: 'Restore' })).toBeNull();
  });

  it('restores a version after asking, never the current one', async () => {
    const user = userEvent.setup();
    const onRestore = vi.fn(async () => undefined);
    renderInApp(<VersionsPanel versions={versions} current={3} loadVersion={async (v) => content(v)} onRestore={onRestore} />);
    expect(screen.getAllByRole('button', { name: 'Restore' })).toHaveLength(2);
    await user.click(within(screen.getByRole('row', { name: /grace/ })).getByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Save the content of version 2 as a new version of this detection?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(onRestore).toHaveBeenCalledWith(2));
  });
});

function Guarded({ dirty }: { readonly dirty: boolean }) {
  const guard = useEditorLeaveGuard(dirty);
  return (
    <>
      {guard.modal}
      <Link to="/elsewhere/">Leave</Link>
    </>
  );
}

describe('leaving the editor', () => {
  const app = (dirty: boolean) => (
    <Routes>
      <Route path="/edit/" element={<Guarded dirty={dirty} />} />
      <Route path="/elsewhere/" element={<p>Elsewhere</p>} />
    </Routes>
  );

  it('with unsaved changes asks first: Cancel stays, Confirm leaves; the browser is asked to warn on unload', async () => {
    const user = userEvent.setup();
    renderInApp(app(true), { at: '/edit/' });
    const unload = new Event('beforeunload', { cancelable: true });
    act(() => void window.dispatchEvent(unload));
    expect(unload.defaultPrevented).toBe(true);
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/You have unsaved changes/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText('Elsewhere')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Elsewhere')).toBeTruthy();
  });

  it('without changes leaves at once', async () => {
    const user = userEvent.setup();
    renderInApp(app(false), { at: '/edit/' });
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    expect(await screen.findByText('Elsewhere')).toBeTruthy();
  });
});
