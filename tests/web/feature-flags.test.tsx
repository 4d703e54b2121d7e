// @vitest-environment jsdom
// The web reads feature flags from config.json: the top bar's bell shows only when the notification-center flag is on.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeatureFlagChoices } from '../../core/feature-flags';
import { TopBar } from '../../web/src/app/shell/TopBar';
import { WebConfigProvider } from '../../web/src/app/webConfig';
import { testConfig } from './support/config';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

function renderTopBar(featureFlags?: FeatureFlagChoices) {
  return renderWithApi(
    <WebConfigProvider value={{ ...testConfig, featureFlags }}>
      <TopBar />
    </WebConfigProvider>,
  );
}

describe('the notification-center flag', () => {
  it('shows the bell by default', async () => {
    renderTopBar();
    expect(await screen.findByRole('button', { name: /^Notifications/ })).toBeTruthy();
  });

  it('shows the bell when the flag is on', async () => {
    renderTopBar({ ENABLE_NOTIFICATION_CENTER: 'on' });
    expect(await screen.findByRole('button', { name: /^Notifications/ })).toBeTruthy();
  });

  it('hides the bell when the flag is at control, keeping the rest of the top bar', async () => {
    renderTopBar({ ENABLE_NOTIFICATION_CENTER: 'control' });
    expect(await screen.findByRole('button', { name: 'Help' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
  });
});
