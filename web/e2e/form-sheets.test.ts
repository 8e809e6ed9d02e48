import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appInBrowser } from './support/app-in-browser.ts';
import { ADMIN } from './support/app-server.ts';
import { PHONE } from './support/browser.ts';
import { makeCameraPhoto } from './support/photo.ts';
import { createHorseLookups, restClient, sessionCookie, signInThroughUi } from './support/session.ts';

/** Whether the whole of `element` is inside the window (none of it scrolled or cut away). */
const inView = (element: Locator) =>
  element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0 && (hit === node || node.contains(hit));
  });

/**
 * Dialogs on a phone (docs/design.md "Dialogs", [B13]): a form fills the screen, its title,
 * ✕ and actions always in view.
 */
describe('form sheets on a phone', () => {
  const app = appInBrowser(async (server) => {
    const api = restClient(server, await sessionCookie(server, ADMIN));
    const refs = await createHorseLookups(api, { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' });
    await api('/api/horses', { method: 'POST', body: JSON.stringify({ name: 'Dusty', ...refs }) });
  });

  async function openAddHorse(page: Page): Promise<Locator> {
    await page.goto(`${app.server.url}/horses`);
    await page.getByText('Dusty').first().waitFor();
    await page.getByRole('button', { name: 'Add Horse' }).first().click();
    const sheet = page.getByRole('dialog', { name: 'Add New Horse' });
    await sheet.getByLabel('Notes').waitFor();
    return sheet;
  }

  it("[B13] fills a phone's screen with Add Horse, and its Create and Cancel stay in view wherever the form is scrolled", async () => {
    const context = await app.browser.newContext(PHONE);
    const page = await signInThroughUi(context, app.server, ADMIN);
    const sheet = await openAddHorse(page);
    const box = sheet.locator('.modal-box');
    await expect.poll(() => box.evaluate((node) => node.getBoundingClientRect().height)).toBe(844);
    expect(await box.evaluate((node) => node.getBoundingClientRect().width)).toBe(390);
    // The form is taller than the screen: it scrolls inside the sheet.
    expect(await box.evaluate((node) => node.scrollHeight > node.clientHeight)).toBe(true);

    const create = sheet.getByRole('button', { name: 'Create Horse' });
    const cancel = sheet.getByRole('button', { name: 'Cancel' });
    const close = sheet.getByRole('button', { name: 'Close', exact: true });
    const title = sheet.getByRole('heading', { name: 'Add New Horse' });
    for (const where of ['bottom', 'middle', 'top'] as const) {
      await box.evaluate((node, to) => {
        node.scrollTop = to === 'top' ? 0 : to === 'bottom' ? node.scrollHeight : node.scrollHeight / 2;
      }, where);
      for (const control of [create, cancel, close, title]) {
        await expect.poll(() => inView(control)).toBe(true);
      }
    }
    // The last field comes out from under the bar at the bottom, the first from under the title.
    await box.evaluate((node) => {
      node.scrollTop = node.scrollHeight;
    });
    await expect.poll(() => inView(sheet.getByLabel('Notes'))).toBe(true);
    await box.evaluate((node) => {
      node.scrollTop = 0;
    });
    await expect.poll(() => inView(sheet.getByRole('textbox', { name: 'Name', exact: true }))).toBe(true);

    // The on-screen keyboard shrinks the screen (interactive-widget=resizes-content): the bar
    // stays above it, in view, while a field low in the form is typed in.
    expect(await page.locator('meta[name=viewport]').getAttribute('content')).toContain('interactive-widget=resizes-content');
    await sheet.getByLabel('Notes').focus();
    await page.setViewportSize({ width: 390, height: 500 });
    await expect.poll(() => box.evaluate((node) => node.getBoundingClientRect().height)).toBe(500);
    await sheet.getByLabel('Notes').fill('Quiet with farriers');
    await expect.poll(() => inView(create)).toBe(true);
    await expect.poll(() => inView(cancel)).toBe(true);
    await context.close();
  });

  it('[B13] keeps the action bar above the keyboard where only the visual viewport shrinks (iOS)', async () => {
    const context = await app.browser.newContext(PHONE);
    const page = await signInThroughUi(context, app.server, ADMIN);
    await page.goto(`${app.server.url}/horses`);
    await page.getByText('Dusty').first().waitFor();
    // Chromium shrinks the layout for its keyboard; iOS Safari keeps it and shrinks only the
    // visual viewport, scrolled to the field: this one does as Safari's does.
    await page.evaluate(() => {
      const view = Object.assign(new EventTarget(), { height: window.innerHeight, offsetTop: 0, scale: 1 });
      Object.defineProperty(window, 'visualViewport', { configurable: true, value: view });
      Object.assign(window, {
        keyboardUp: (height: number, offsetTop: number) => {
          Object.assign(view, { height, offsetTop });
          view.dispatchEvent(new Event('resize'));
        },
      });
    });
    await page.getByRole('button', { name: 'Add Horse' }).first().click();
    const sheet = page.getByRole('dialog', { name: 'Add New Horse' });
    // [B14] On a touch screen the focus starts in the dialog but on no field: no keyboard comes up unasked.
    await sheet.getByLabel('Notes').waitFor();
    await expect.poll(() => sheet.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.matches('input, select, textarea'))).toBe(false);
    await sheet.getByLabel('Notes').focus();
    await page.evaluate(() => (window as unknown as { keyboardUp: (height: number, top: number) => void }).keyboardUp(480, 150));
    const box = sheet.locator('.modal-box');
    await expect
      .poll(() => box.evaluate((node) => [node.getBoundingClientRect().top, node.getBoundingClientRect().height]))
      .toEqual([150, 480]);
    for (const name of ['Create Horse', 'Cancel']) {
      const bounds = await sheet.getByRole('button', { name }).evaluate((node) => node.getBoundingClientRect().toJSON());
      expect(bounds.top).toBeGreaterThanOrEqual(150);
      expect(bounds.bottom).toBeLessThanOrEqual(150 + 480);
    }
    await page.evaluate(() => (window as unknown as { keyboardUp: (height: number, top: number) => void }).keyboardUp(844, 0));
    await expect.poll(() => box.evaluate((node) => node.getBoundingClientRect().height)).toBe(844);
    await context.close();
  });

  it("[B15] asks before Escape or the browser's Back throws away a filled Add Horse, and loses nothing when the person stays", async () => {
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInThroughUi(context, app.server, ADMIN);
    // Into Horses through the app, so Back is the app's own (not a new page load).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Horses' }).click();
    await page.getByText('Dusty').first().waitFor();
    const openForm = async () => {
      await page.getByRole('button', { name: 'Add Horse' }).first().click();
      const sheet = page.getByRole('dialog', { name: 'Add New Horse' });
      await sheet.getByLabel('Notes').waitFor();
      return sheet;
    };
    const path = () => new URL(page.url()).pathname;

    // Untouched, Back closes the form at once and stays on Horses.
    let sheet = await openForm();
    await page.goBack();
    await sheet.waitFor({ state: 'hidden' });
    await expect.poll(path).toBe('/horses');
    await page.getByText('Dusty').first().waitFor();

    sheet = await openForm();
    const name = sheet.getByRole('textbox', { name: 'Name', exact: true });
    await name.fill('Storm Chaser');
    await sheet.getByLabel('Notes').fill('Bought at the spring sale');
    const question = page.getByRole('dialog', { name: 'Discard changes?' });

    await page.keyboard.press('Escape');
    await question.waitFor();
    await question.getByRole('button', { name: 'Keep Editing' }).click();
    await question.waitFor({ state: 'hidden' });
    expect(await name.inputValue()).toBe('Storm Chaser');
    expect(await sheet.getByLabel('Notes').inputValue()).toBe('Bought at the spring sale');

    await page.goBack();
    await question.waitFor();
    await expect.poll(path).toBe('/horses');
    // Keep Editing has the focus: Enter keeps the form.
    await page.keyboard.press('Enter');
    await question.waitFor({ state: 'hidden' });
    expect(await name.inputValue()).toBe('Storm Chaser');

    await sheet.getByRole('button', { name: 'Close', exact: true }).click();
    await question.getByRole('button', { name: 'Discard' }).click();
    await sheet.waitFor({ state: 'hidden' });
    await expect.poll(path).toBe('/horses');
    expect(await page.getByText('Storm Chaser').count()).toBe(0);
    await context.close();
  });

  it('[I10] offers the camera or the gallery on a phone, names the photo chosen, and refuses a text file renamed .jpg', async () => {
    const context = await app.browser.newContext(PHONE);
    const page = await signInThroughUi(context, app.server, ADMIN);
    const sheet = await openAddHorse(page);
    await sheet.getByRole('textbox', { name: 'Name', exact: true }).fill('Storm Chaser');
    await sheet.getByRole('button', { name: 'Take Photo' }).waitFor();
    await sheet.getByRole('button', { name: 'Choose Photo' }).waitFor();
    expect(await sheet.getByText('No file chosen').count()).toBe(0);

    await sheet
      .getByLabel('Photo', { exact: true })
      .setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Feed: 2 flakes of hay') });
    await sheet.getByText('notes.jpg: This file could not be read as a photo. Choose a JPEG, PNG, WebP or HEIC image.').waitFor();
    expect(await sheet.getByRole('button', { name: 'Remove photo' }).count()).toBe(0);
    expect(await sheet.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('Storm Chaser');

    const photo = await makeCameraPhoto(page, 800, 600, 0.9);
    await sheet.getByLabel('Photo', { exact: true }).setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: photo });
    await sheet.getByText(/^Photo ready: IMG_0001\.jpg \(\d+ KB → \d+ KB\)$/).waitFor({ timeout: 30_000 });
    await sheet.getByRole('img', { name: 'Photo of Storm Chaser' }).waitFor();
    await context.close();
  });

  it('keeps a centred dialog on a desk, its title and actions in view while a long form scrolls', async () => {
    const context = await app.browser.newContext({ viewport: { width: 1366, height: 600 } });
    const page = await signInThroughUi(context, app.server, ADMIN);
    const dialog = await openAddHorse(page);
    const box = dialog.locator('.modal-box');
    const rect = await box.evaluate((node) => node.getBoundingClientRect().toJSON() as DOMRect);
    expect(rect.width).toBeLessThan(1366 / 2 + 100);
    expect(Math.round(rect.left + rect.width / 2)).toBe(683);
    await box.evaluate((node) => {
      node.scrollTop = node.scrollHeight / 2;
    });
    for (const control of [
      dialog.getByRole('button', { name: 'Create Horse' }),
      dialog.getByRole('button', { name: 'Close', exact: true }),
    ]) {
      await expect.poll(() => inView(control)).toBe(true);
    }
    await context.close();
  });
});
