// Debian's Chromium for the browser tests, driven by playwright-core (nothing is downloaded).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../local/harness';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`The browser tests need Chromium at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * Collects the Content-Security-Policy violations the pages of `context` report, from the moment it is
 * called: each `securitypolicyviolation` event of a document (directive, what was blocked, where), and each
 * violation Chromium logs to the console (workers' included).
 */
export async function collectCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__caracalCspViolation', (_source, text: string) => void violations.push(text));
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (e) =>
    window.__caracalCspViolation(e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));`);
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}

/** What a browser test file works against: its own local runtime and one Chromium. */
export interface BrowserSuite {
  readonly runtime: TestRuntime;
  readonly browser: Browser;
}

/** Starts a local runtime and Chromium before the file's tests and stops both after them. */
export function browserSuite(): BrowserSuite {
  const suite = {} as { runtime: TestRuntime; browser: Browser };
  beforeAll(async () => {
    suite.runtime = await startTestRuntime();
    suite.browser = await launchChromium();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.runtime?.stop();
  });
  return suite;
}
