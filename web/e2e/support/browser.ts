import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';

/** Debian's Chromium with the flags it needs on a closed network: no GPU, QUIC, first-run or background traffic. */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM);
}

/** A phone held in one hand, and a desk's window: the sizes the layout tests use. */
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
export const DESK: BrowserContextOptions = { viewport: { width: 1366, height: 800 } };
export const SIZES: Record<'phone' | 'desk', BrowserContextOptions> = { phone: PHONE, desk: DESK };
