// Tables at 1024 px in Chromium against the local runtime: the users list, wider than its room, scrolls
// sideways inside the page with a visible scrollbar, and its last column (the row actions) can be reached.

import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const suite = browserSuite();

describe('tables at 1024 px', () => {
  it('the users list scrolls sideways with a visible scrollbar to its last column', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1024, height: 768 } });
    const admin = await signInFirstAdmin(page, suite.runtime, '/settings/users/');
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('row').nth(1).waitFor();

    // The page itself does not scroll sideways: the table's own area does, inside the viewport, with its
    // horizontal scrollbar shown (not only on hover) at the foot of the table.
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(1024);
    const area = page.locator('.mantine-ScrollArea-root', { has: table });
    const scrollbar = area.locator('[data-orientation="horizontal"]').first();
    await page.mouse.move(5, 700);
    expect(await scrollbar.isVisible()).toBe(true);
    expect(await scrollbar.getAttribute('data-hidden')).toBeNull();
    // The backend's type check has no DOM library: the page's own getComputedStyle is reached through globalThis.
    const opacity = await scrollbar.evaluate(
      (element) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(element).opacity,
    );
    expect(opacity).toBe('1');
    const bar = (await scrollbar.boundingBox())!;
    expect(bar.height).toBeGreaterThan(0);
    expect(bar.x + bar.width).toBeLessThanOrEqual(1024);

    // Dragged to its end, the last column shows within the viewport, and its actions open.
    const thumb = scrollbar.locator('.mantine-ScrollArea-thumb');
    const start = (await thumb.boundingBox())!;
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width, start.y + start.height / 2, { steps: 5 });
    await page.mouse.up();
    const actions = table.getByRole('button', { name: `Actions for ${admin.username}` });
    const box = (await actions.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    await actions.click();
    await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
    await page.close();
  });
});
