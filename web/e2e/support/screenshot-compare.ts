import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** The committed reference images (web/e2e/screenshots/<name>.png). */
export const REFERENCE_DIR = new URL('../screenshots/', import.meta.url).pathname;
export const UPDATE_COMMAND = 'UPDATE_SCREENSHOTS=1 npx vitest run --project e2e web/e2e/screenshots.test.ts';

/** A pixel differs when pixelmatch's colour distance says so (anti-aliased edges are not counted). */
const PIXEL_THRESHOLD = 0.1;
/** The share of a screen's pixels that may differ: a few glyphs' rendering, not a moved box. */
const MAX_DIFF_RATIO = 0.002;

let failedDir: string | undefined;

/**
 * Compares a screenshot with its reference. With UPDATE_SCREENSHOTS=1 it writes the
 * reference instead. Returns null when they agree (or after an update), else why not: a
 * missing reference, another size, or too many pixels apart, in which case the actual image
 * and the difference (red where they differ) are written to a temporary folder and named.
 */
export function compareWithReference(name: string, actual: Buffer): string | null {
  const file = join(REFERENCE_DIR, `${name}.png`);
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(REFERENCE_DIR, { recursive: true });
    writeFileSync(file, actual);
    return null;
  }
  if (!existsSync(file)) return `${name}: no reference image ${file}; make it with ${UPDATE_COMMAND}, look at it, and commit it`;
  const expected = PNG.sync.read(readFileSync(file));
  const seen = PNG.sync.read(actual);
  const keep = () => {
    failedDir ??= mkdtempSync(join(tmpdir(), 'ranch-screenshots-'));
    const actualFile = join(failedDir, `${name}.actual.png`);
    writeFileSync(actualFile, actual);
    return actualFile;
  };
  if (expected.width !== seen.width || expected.height !== seen.height) {
    return `${name}: ${seen.width}×${seen.height}, the reference is ${expected.width}×${expected.height}; actual: ${keep()}`;
  }
  const diff = new PNG({ width: seen.width, height: seen.height });
  const differing = pixelmatch(expected.data, seen.data, diff.data, seen.width, seen.height, { threshold: PIXEL_THRESHOLD });
  const ratio = differing / (seen.width * seen.height);
  if (ratio <= MAX_DIFF_RATIO) return null;
  const actualFile = keep();
  const diffFile = actualFile.replace(/\.actual\.png$/, '.diff.png');
  writeFileSync(diffFile, PNG.sync.write(diff));
  return `${name}: ${differing} pixels differ (${(ratio * 100).toFixed(2)} %, at most ${MAX_DIFF_RATIO * 100} %); actual: ${actualFile}, difference: ${diffFile}`;
}
