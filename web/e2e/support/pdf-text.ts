import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF as Chromium's `page.pdf()` writes it (Skia's PDF backend), so a test can
 * check what a printed page says without a PDF library or poppler: every object is plain
 * (no object streams), content and ToUnicode streams are Flate-compressed, text is shown
 * with `Tj`/`TJ` in Type0 fonts (two-byte glyph codes) each with a ToUnicode CMap, or with
 * simple fonts (one-byte codes). Text on one baseline is one line (runs of spaces as one); lines are
 * joined with '\n'. Not a general PDF reader.
 */
export function pdfText(pdf: Uint8Array): string {
  const source = Buffer.from(pdf).toString('latin1');
  const objects = new Map<string, { dict: string; stream: string | null }>();
  for (const match of source.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = match[2]!;
    const streamAt = body.indexOf('stream');
    if (streamAt === -1) {
      objects.set(match[1]!, { dict: body, stream: null });
      continue;
    }
    const dict = body.slice(0, streamAt);
    let start = streamAt + 'stream'.length;
    if (body[start] === '\r') start++;
    if (body[start] === '\n') start++;
    const raw = Buffer.from(body.slice(start, body.lastIndexOf('endstream')), 'latin1');
    let stream: string;
    try {
      stream = /\/FlateDecode/.test(dict) ? inflateSync(raw).toString('latin1') : raw.toString('latin1');
    } catch {
      stream = '';
    }
    objects.set(match[1]!, { dict, stream });
  }
  const cmapOf = (fontRef: string) => {
    const font = objects.get(fontRef);
    const toUnicode = font && /\/ToUnicode (\d+) 0 R/.exec(font.dict)?.[1];
    const cmap = toUnicode ? objects.get(toUnicode)?.stream : undefined;
    return { map: cmap ? parseCmap(cmap) : new Map<number, string>(), wide: font ? /\/Type0/.test(font.dict) : false };
  };
  const lines: string[] = [];
  for (const page of objects.values()) {
    if (!/\/Type \/Page\b/.test(page.dict)) continue;
    const fonts = new Map<string, ReturnType<typeof cmapOf>>();
    // Resources inline or referenced; their /Font dictionary, inline or referenced.
    const resources = /\/Resources (\d+) 0 R/.exec(page.dict)?.[1];
    const resourceText = resources ? (objects.get(resources)?.dict ?? '') : page.dict;
    const fontDictRef = /\/Font (\d+) 0 R/.exec(resourceText)?.[1];
    const fontText = fontDictRef ? (objects.get(fontDictRef)?.dict ?? '') : (/\/Font\s*<<([\s\S]*?)>>/.exec(resourceText)?.[1] ?? '');
    for (const [, name, ref] of fontText.matchAll(/\/([\w.+-]+) (\d+) 0 R/g)) fonts.set(name!, cmapOf(ref!));
    const contents = /\/Contents (\d+) 0 R/.exec(page.dict)?.[1];
    const content = contents ? (objects.get(contents)?.stream ?? '') : '';
    let font = { map: new Map<number, string>(), wide: false };
    let line = '';
    let baseline: string | null = null;
    const decode = (hex: string) => {
      const size = font.wide ? 4 : 2;
      let text = '';
      for (let at = 0; at + size <= hex.length; at += size) {
        const code = Number.parseInt(hex.slice(at, at + size), 16);
        text += font.map.get(code) ?? (font.wide ? '' : String.fromCharCode(code));
      }
      return text;
    };
    const show = (text: string) => {
      line += text;
    };
    // A text object starts at a `Tm`; one on another baseline starts a new line, one on the
    // same baseline (a bold word, then the rest) continues it. `Td` inside one is kerning.
    const TOKENS = /\/([\w.+-]+) [\d.]+ Tf|<([0-9A-Fa-f]*)>|\(((?:\\.|[^\\)])*)\)|[-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ ([-\d.]+) Tm/g;
    for (const token of content.matchAll(TOKENS)) {
      if (token[1] !== undefined) font = fonts.get(token[1]) ?? font;
      else if (token[2] !== undefined) show(decode(token[2]));
      else if (token[3] !== undefined) show(token[3].replace(/\\(.)/g, '$1'));
      else if (token[4] !== undefined) {
        if (baseline !== token[4]) {
          if (line.trim() !== '') lines.push(line.replace(/\s+/g, ' ').trim());
          line = '';
          baseline = token[4];
        } else if (line !== '' && !line.endsWith(' ')) line += ' ';
      }
    }
    if (line.trim() !== '') lines.push(line.replace(/\s+/g, ' ').trim());
  }
  return lines.join('\n');
}

/** A ToUnicode CMap: `bfchar` and `bfrange` entries, codes to text. */
function parseCmap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const utf16 = (hex: string) => {
    let text = '';
    for (let at = 0; at + 4 <= hex.length; at += 4) text += String.fromCharCode(Number.parseInt(hex.slice(at, at + 4), 16));
    return text;
  };
  for (const [, block] of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, text] of block!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) map.set(Number.parseInt(code!, 16), utf16(text!));
  }
  for (const [, block] of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, target] of block!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      const first = Number.parseInt(from!, 16);
      const base = Number.parseInt(target!, 16);
      for (let code = first; code <= Number.parseInt(to!, 16); code++) map.set(code, String.fromCharCode(base + code - first));
    }
  }
  return map;
}
