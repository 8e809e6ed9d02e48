import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRange, subjectProblems } from '../../scripts/check-commits.ts';

describe('npm run check:commits', () => {
  it('takes a subject of up to 72 characters, counted as characters, not bytes', () => {
    expect(subjectProblems('Refuse unknown roots before applying an update')).toEqual([]);
    expect(subjectProblems('é'.repeat(72))).toEqual([]);
    expect(subjectProblems('x'.repeat(73))).toEqual(['the subject is 73 characters (at most 72)']);
  });

  it('refuses fix-ups left unfolded and empty subjects', () => {
    expect(subjectProblems('fixup! Add a changelog')).toEqual([expect.stringMatching(/^a fix-up/)]);
    expect(subjectProblems('squash! Add a changelog')).toHaveLength(1);
    expect(subjectProblems('Re-read: the rows as run')).toEqual([expect.stringMatching(/^a review fix-up/)]);
    expect(subjectProblems(' ')).toEqual(['the subject is empty']);
    expect(subjectProblems('Re-read socket roles in the periodic check')).toEqual([]);
  });

  it('lists the commits of a range that break the rules, and only those', () => {
    const repo = mkdtempSync(join(tmpdir(), 'check-commits-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo, encoding: 'utf8' }).trim();
      git('init', '-q', '-b', 'main');
      const commit = (subject: string) => {
        writeFileSync(join(repo, 'file.txt'), subject);
        git('add', 'file.txt');
        git('commit', '-q', '-m', subject);
        return git('rev-parse', '--short', 'HEAD');
      };
      commit('Start');
      git('checkout', '-q', '-b', 'work');
      commit('Add a short, clear subject');
      const long = commit(`Add ${'a very long subject '.repeat(5)}`);
      const fixup = commit('fixup! Add a short, clear subject');
      expect(checkRange('main..work', repo).map(({ hash }) => hash)).toEqual([fixup, long]);
      expect(checkRange('main..main', repo)).toEqual([]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
