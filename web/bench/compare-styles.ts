// Two builds' looks compared element by element (`BENCH_ONLY=compare-styles`,
// `BENCH_AB_DIR=<the other build>`; docs/performance.md "Tools for a closer look"): every screen on a
// phone and on a desk, with Add Horse open and the phone's drawer open, each element's
// computed style (every property but custom ones, and its ::before and ::after) read in both
// builds and the differences listed, and each state's screenshot compared pixel for pixel
// (the sync status masked; two runs of one build still differ in one to three screenshots,
// the open drawer's most often, so a screenshot that differs is a place to look). Made for
// stylesheet and markup changes meant to change nothing that shows (docs/web.md "Dialogs
// that open at once"); the figures are counts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { sleep } from '../../sync-server/bench/clients.ts';
import type { Row } from '../../sync-server/bench/table.ts';
import { browserProfiles } from './browser-profiles.ts';
import { leaveApp, PHONE, signInAndSync } from './phone-session.ts';

type Build = { label: string; url: string };
/** Each element's path (tag and index under its parent) → its computed style, property by property. */
type Look = Record<string, Record<string, string>>;
type State = { name: string; path: string; act?: (page: Page) => Promise<void> };

const SCREENS = ['/', '/horses', '/owners', '/buyers', '/sales', '/admin', '/users', '/settings', '/profile'];
const DESK = { viewport: { width: 1280, height: 800 } };

const openAddHorse = async (page: Page) => {
  await page.getByRole('button', { name: 'Add Horse' }).first().click();
  await page.getByRole('dialog', { name: 'Add New Horse' }).getByRole('button', { name: 'Cancel' }).waitFor();
};
const openDrawer = async (page: Page) => {
  await page.getByRole('button', { name: 'Open menu' }).click();
};

/**
 * Every element's computed style on the page now, ::before and ::after included. A string
 * run in the page (as phone-probe.ts's PROBE): the bench's compiler names functions through a
 * helper the page does not have.
 */
const READ_LOOK = `(() => {
  const look = {};
  const pathOf = (element) => {
    const parts = [];
    for (let node = element; node; node = node.parentElement) {
      const index = node.parentElement ? [...node.parentElement.children].indexOf(node) : 0;
      parts.unshift(node.tagName.toLowerCase() + '[' + index + ']');
    }
    return parts.join('/');
  };
  const read = (style) => {
    const values = {};
    for (let i = 0; i < style.length; i++) {
      const name = style.item(i);
      if (!name.startsWith('--')) values[name] = style.getPropertyValue(name);
    }
    return values;
  };
  for (const element of document.querySelectorAll('*')) {
    const path = pathOf(element);
    look[path] = read(getComputedStyle(element));
    for (const pseudo of ['::before', '::after']) {
      const style = getComputedStyle(element, pseudo);
      if (style.content !== 'none' && style.content !== 'normal') look[path + pseudo] = read(style);
    }
  }
  return look;
})()`;
const readLook = (page: Page): Promise<Look> => page.evaluate(READ_LOOK) as Promise<Look>;

/** Until the page's element count has held for a second (its lists read, its dialog shown) and transitions are over. */
async function settled(page: Page): Promise<void> {
  let last = -1;
  for (let still = 0; still < 4; ) {
    await sleep(250);
    const count = await page.evaluate(() => document.querySelectorAll('*').length);
    still = count === last ? still + 1 : 0;
    last = count;
  }
}

/** The state's look, and how it is drawn (a screenshot of the viewport, caret and sync status hidden). */
async function lookOf(page: Page, url: string, state: State): Promise<{ look: Look; shot: Buffer }> {
  await page.goto(`${url}${state.path}`);
  await settled(page);
  if (state.act) {
    await state.act(page);
    await settled(page);
  }
  // The sync status ("Synced just now", "Saving…") moves on its own: masked in both.
  const moving = [page.getByRole('group', { name: 'Sync status' })];
  return { look: await readLook(page), shot: await page.screenshot({ caret: 'hide', animations: 'disabled', mask: moving }) };
}

/** The differences between two looks, as lines: the element, the property, both values. */
function differences(a: Look, b: Look): string[] {
  const lines: string[] = [];
  for (const path of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const one = a[path];
    const other = b[path];
    if (!one || !other) {
      lines.push(`${path}: only in ${one ? 'the first' : 'the second'} build`);
      continue;
    }
    for (const name of new Set([...Object.keys(one), ...Object.keys(other)])) {
      if (one[name] !== other[name]) lines.push(`${path} ${name}: ${one[name]} | ${other[name]}`);
    }
  }
  return lines;
}

export async function compareStyles(builds: Build[], log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [device, options] of [
    ['phone', PHONE],
    ['desk', DESK],
  ] as const) {
    const states: State[] = [
      ...SCREENS.map((path) => ({ name: path, path })),
      { name: '/horses, Add Horse open', path: '/horses', act: openAddHorse },
      ...(device === 'phone' ? [{ name: '/horses, the drawer open', path: '/horses', act: openDrawer }] : []),
    ];
    const profiles = browserProfiles('ranch-bench-styles-');
    try {
      const pages: Page[] = [];
      for (const build of builds) {
        const context = await profiles.launch(options);
        const page = context.pages()[0] ?? (await context.newPage());
        await signInAndSync(page, build.url);
        await leaveApp(page, build.url);
        pages.push(page);
      }
      let elements = 0;
      let differing = 0;
      const drawnApart: string[] = [];
      for (const state of states) {
        const [one, other] = await Promise.all(builds.map((build, i) => lookOf(pages[i]!, build.url, state)));
        const [a, b] = [one!.look, other!.look];
        const found = differences(a, b);
        elements += Object.keys(a).length;
        differing += found.length;
        if (!one!.shot.equals(other!.shot)) {
          drawnApart.push(state.name);
          // BENCH_STYLES_SHOTS=<folder>: both builds' screenshots of a state drawn apart, to look at.
          const folder = process.env.BENCH_STYLES_SHOTS;
          const name = `${device}${state.name}`.replace(/[^a-z0-9]+/gi, '-');
          if (folder) {
            mkdirSync(folder, { recursive: true });
            [one!, other!].forEach(({ shot }, i) => writeFileSync(join(folder, `${name}.${i + 1}.png`), shot));
          }
        }
        log(
          `  styles: ${device} ${state.name}: ${Object.keys(a).length} / ${Object.keys(b).length} elements, ${found.length} differences; screenshots ${one!.shot.equals(other!.shot) ? 'the same' : 'differ'}`,
        );
        for (const line of found.slice(0, 40)) log(`    ${line.slice(0, 300)}`);
      }
      rows.push({
        group: 'Computed styles, builds compared',
        figure: `${device}: differences in every element's computed style, ${states.length} screens and states`,
        ours: String(differing),
        note: `${elements} elements (and pseudo-elements) read in ${builds[0]!.label}; ${builds[1]!.label} the other build`,
      });
      rows.push({
        group: 'Computed styles, builds compared',
        figure: `${device}: screenshots that differ, ${states.length} screens and states`,
        ours: String(drawnApart.length),
        note: drawnApart.join('; ') || 'every one the same, pixel for pixel',
      });
    } finally {
      await profiles.closeAll();
    }
  }
  return rows;
}
