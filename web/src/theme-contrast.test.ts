import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/design.md "Colour": every text pair of the ranch's themes reaches WCAG AA (4.5:1),
 * computed from the colours styles.css gives daisyUI, mixed the way the browser mixes them.
 */
const SRC = import.meta.dirname;
const AA = 4.5;

type Rgb = [number, number, number];

/** The `@plugin "daisyui/theme"` blocks of styles.css: name → token → colour. */
function themes(): Map<string, Map<string, Rgb>> {
  const css = readFileSync(join(SRC, 'styles.css'), 'utf8');
  const found = new Map<string, Map<string, Rgb>>();
  for (const [, body] of css.matchAll(/@plugin "daisyui\/theme" \{([^}]*)\}/g)) {
    const name = /name: "([^"]+)"/.exec(body!)?.[1];
    if (!name) throw new Error('styles.css: a theme without a name');
    const colours = new Map<string, Rgb>();
    for (const [, token, hex] of body!.matchAll(/--color-([a-z0-9-]+): #([0-9a-f]{6});/g)) {
      colours.set(token!, [0, 2, 4].map((at) => Number.parseInt(hex!.slice(at, at + 2), 16)) as Rgb);
    }
    found.set(name, colours);
  }
  return found;
}

const toLinear = (channel: number) => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const toSrgb = (linear: number) =>
  255 * Math.min(1, Math.max(0, linear <= 0.0031308 ? 12.92 * linear : 1.055 * linear ** (1 / 2.4) - 0.055));
const luminance = ([r, g, b]: Rgb) => 0.2126 * toLinear(r) + 0.7152 * toLinear(g) + 0.0722 * toLinear(b);

function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Tailwind's `text-base-content/60` over a ground: alpha compositing in sRGB. */
const withAlpha = (fg: Rgb, ground: Rgb, alpha: number): Rgb => fg.map((v, i) => v * alpha + ground[i]! * (1 - alpha)) as Rgb;

/** `color-mix(in oklab, fg share, ground)`, as daisyUI tints a soft badge's or alert's ground. */
function mixOklab(fg: Rgb, ground: Rgb, share: number): Rgb {
  const toOklab = (rgb: Rgb) => {
    const [r, g, b] = rgb.map(toLinear) as Rgb;
    const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    return [
      0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
      1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
      0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
    ];
  };
  const [a, b] = [toOklab(fg), toOklab(ground)];
  const [L, A, B] = a.map((v, i) => v * share + b[i]! * (1 - share)) as Rgb;
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    toSrgb(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    toSrgb(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    toSrgb(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

const FILLS = ['primary', 'secondary', 'accent', 'neutral', 'info', 'success', 'warning', 'error'];
const GROUNDS = ['base-100', 'base-200', 'base-300'];
/** Colours also used as text on the page's grounds: links, `text-error`, soft and outline badges. */
const TEXT_COLOURS = ['primary', 'secondary', 'info', 'success', 'error'];

/** Every text pair of a theme with its ratio, as docs/design.md lists them. */
function textPairs(colours: Map<string, Rgb>): { pair: string; ratio: number }[] {
  const colour = (token: string) => {
    const value = colours.get(token);
    if (!value) throw new Error(`theme has no --color-${token}`);
    return value;
  };
  const pairs: { pair: string; ratio: number }[] = [];
  for (const fill of FILLS) pairs.push({ pair: `${fill}-content on ${fill}`, ratio: contrast(colour(`${fill}-content`), colour(fill)) });
  for (const ground of GROUNDS) pairs.push({ pair: `base-content on ${ground}`, ratio: contrast(colour('base-content'), colour(ground)) });
  for (const ground of ['base-100', 'base-200']) {
    const muted = withAlpha(colour('base-content'), colour(ground), 0.6);
    pairs.push({ pair: `base-content/60 on ${ground}`, ratio: contrast(muted, colour(ground)) });
  }
  for (const text of TEXT_COLOURS) {
    for (const ground of ['base-100', 'base-200'])
      pairs.push({ pair: `${text} on ${ground}`, ratio: contrast(colour(text), colour(ground)) });
    const soft = mixOklab(colour(text), colour('base-100'), 0.08);
    pairs.push({ pair: `${text} on soft ${text}`, ratio: contrast(colour(text), soft) });
  }
  return pairs;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\./.test(entry.name) ? [path] : [];
  });
}

describe('the ranch themes', () => {
  const all = themes();

  it('are the two the appearance setting picks, light and dark', () => {
    expect([...all.keys()]).toEqual(['ranch', 'ranch-dark']);
  });

  for (const [name, colours] of all) {
    it(`${name}: every text pair reaches AA (4.5:1)`, () => {
      const pairs = textPairs(colours);
      expect(pairs).toHaveLength(28);
      expect(pairs.filter(({ ratio }) => ratio < AA).map(({ pair, ratio }) => `${pair}: ${ratio.toFixed(2)}`)).toEqual([]);
    });
  }

  it('checks what it claims: a pale brown on cream fails', () => {
    expect(contrast([0xc9, 0xb9, 0xa6], [0xf6, 0xf2, 0xec])).toBeLessThan(AA);
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
  });

  it('uses warning and accent only as fills: as text on the light ground they fall below AA', () => {
    const misuse: string[] = [];
    for (const file of sourceFiles(SRC)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [, classes] of line.matchAll(/className=\{?[`"']([^`"']*)[`"']/g)) {
            const tokens = classes!.split(/\s+/);
            const asText = tokens.some((t) => /^(text|link)-(warning|accent)\b/.test(t));
            const tinted = tokens.some((t) => /-(soft|outline|dash)$/.test(t)) && tokens.some((t) => /-(warning|accent)$/.test(t));
            if (asText || tinted) misuse.push(`${file.slice(SRC.length + 1)}:${index + 1}`);
          }
        });
    }
    expect(misuse).toEqual([]);
  });
});
