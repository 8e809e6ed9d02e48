import type { Page } from 'playwright-core';

/** The ranch's two themes, light then dark. */
export const THEMES = ['ranch', 'ranch-dark'] as const;
export type Theme = (typeof THEMES)[number];

/**
 * Shows the page in one of the ranch's themes (data-theme, as Settings → Appearance sets it)
 * and waits until the colours' transitions, and any other finite animation such as a drawer
 * sliding in, have ended, so what is read or captured next is the theme's own colours.
 */
export async function showTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate(async (theme) => {
    document.documentElement.setAttribute('data-theme', theme);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  }, theme);
}
