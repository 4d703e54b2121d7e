// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectivityModal } from '../../web/src/app/ConnectivityModal';
import { renderInApp } from './support/render';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the no-internet modal', () => {
  it('opens when the browser goes offline and closes when it is back', async () => {
    const onLine = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(true);
    renderInApp(<ConnectivityModal />);
    expect(screen.queryByText('No Internet Connection')).toBeNull();

    onLine.mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(await screen.findByText('No Internet Connection')).toBeTruthy();

    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByText('No Internet Connection')).toBeNull();
  });
});
