// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { notifications as snackbars } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../web/src/app/App';
import { installBrowserStandIns } from './support/render';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('snackbars', () => {
  it('show at the bottom right, clear of the page header actions (Edit, Delete) at the top right', async () => {
    installBrowserStandIns();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    render(<App />);
    act(() => {
      snackbars.show({ color: 'green', message: 'Source created successfully' });
    });
    const snackbar = await screen.findByText('Source created successfully');
    const container = snackbar.closest('[data-position]');
    expect(container?.getAttribute('data-position')).toBe('bottom-right');
  });
});
