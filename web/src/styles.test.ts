import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname);

/** The daisyUI components styles.css leaves out (its `exclude:` list). */
function excludedComponents(): string[] {
  const css = readFileSync(join(SRC, 'styles.css'), 'utf8');
  const list = /@plugin "daisyui" \{\s*exclude:([^;]+);/.exec(css)?.[1];
  if (!list) throw new Error('styles.css: no daisyUI exclude list');
  return list.split(',').map((name) => name.trim());
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx$/.test(entry.name) && !/\.test\./.test(entry.name) ? [path] : [];
  });
}

describe('styles.css', () => {
  it('leaves out only daisyUI components no screen uses: a class of one would show unstyled', () => {
    const excluded = new Set(excludedComponents());
    expect(excluded.has('join')).toBe(true);
    const used: string[] = [];
    const files = sourceFiles(SRC);
    let classNames = 0;
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          // The strings of className attributes, template literals included.
          for (const match of line.matchAll(/className=\{?[`"']([^`"']*)[`"']/g)) {
            classNames += 1;
            for (const token of match[1]!.split(/\s+/)) {
              // A component's own class or one of its parts (join-item, list-row, dropdown-content);
              // not Tailwind's utilities that share a prefix (list-none, filter-none).
              const name = token.replace(/^([a-z0-9-]+:)+/, '');
              const component = name.replace(/-(item|row|content|title|start|end|top|bottom|open)$/, '');
              if (excluded.has(component)) used.push(`${file.slice(SRC.length + 1)}:${index + 1} ${token}`);
            }
          }
        });
    }
    // It read the screens and their classes, so an empty list below means something.
    expect(files.length).toBeGreaterThan(50);
    expect(classNames).toBeGreaterThan(200);
    expect(used).toEqual([]);
  });
});
