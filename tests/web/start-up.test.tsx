// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebConfig } from '../../core/web-config';
import { StartUp } from '../../web/src/app/StartUp';
import { loadWebConfig, WebConfigError } from '../../web/src/app/webConfig';
import { testConfig } from './support/config';
import { installBrowserStandIns } from './support/render';

afterEach(cleanup);

const answer = (status: number, body: string): typeof fetch =>
  vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }));

describe('reading config.json', () => {
  it('returns the configuration', async () => {
    const fetchConfig = answer(200, JSON.stringify(testConfig));
    await expect(loadWebConfig(fetchConfig)).resolves.toEqual(testConfig);
    expect(fetchConfig).toHaveBeenCalledWith('/config.json', expect.objectContaining({ cache: 'no-store' }));
  });

  it.each([
    ['an error status', answer(503, 'down'), 'The server answered 503 for /config.json.'],
    ['a body that is not JSON', answer(200, '<html>'), '/config.json is not valid JSON.'],
    ['a body without the settings', answer(200, '{"region":"us-east-1"}'), '/config.json is missing required settings.'],
    [
      'an unreachable server',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
      'The server could not be reached to read /config.json.',
    ],
  ])('fails with a clear reason on %s', async (_, fetchConfig, reason) => {
    const failure = loadWebConfig(fetchConfig as typeof fetch);
    await expect(failure).rejects.toBeInstanceOf(WebConfigError);
    await expect(failure).rejects.toThrow(reason);
  });
});

function renderStartUp(loadConfig: () => Promise<WebConfig>, onRetry = vi.fn()) {
  installBrowserStandIns();
  render(
    <MantineProvider>
      <StartUp loadConfig={loadConfig} onRetry={onRetry}>
        {(config) => <p>Started {config.stage}</p>}
      </StartUp>
    </MantineProvider>,
  );
  return onRetry;
}

describe('start-up', () => {
  it('shows the logo placeholder until the configuration loads, then the app', async () => {
    let resolve: (config: WebConfig) => void = () => undefined;
    renderStartUp(() => new Promise((done) => (resolve = done)));
    expect(screen.getByRole('status', { name: 'Loading Caracal' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Caracal logo' })).toBeTruthy();
    resolve(testConfig);
    expect(await screen.findByText('Started test')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading Caracal' })).toBeNull();
  });

  it('shows the server error page with the reason when the configuration fails to load', async () => {
    const onRetry = renderStartUp(() => Promise.reject(new WebConfigError('The server answered 503 for /config.json.')));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(screen.getByText('An error has occurred and our team has been notified')).toBeTruthy();
    expect(screen.getByText('The server answered 503 for /config.json.')).toBeTruthy();
    screen.getByRole('button', { name: 'Try again' }).click();
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
