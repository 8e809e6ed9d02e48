// `npm run check:commits -- [range]`: the commit subjects of a range (default: what this
// branch has that main has not) against docs/contributing.md "Commits": at most 72
// characters, and no fix-up left unfolded. Exits 1 and lists each offender.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const MAX_SUBJECT = 72;

/** What is wrong with one subject (empty: nothing). */
export function subjectProblems(subject: string): string[] {
  const problems: string[] = [];
  if (subject.trim() === '') problems.push('the subject is empty');
  const length = [...subject].length;
  if (length > MAX_SUBJECT) problems.push(`the subject is ${length} characters (at most ${MAX_SUBJECT})`);
  if (/^(fixup|squash|amend)! /.test(subject)) problems.push('a fix-up: fold it into the commit it fixes (git rebase -i --autosquash)');
  if (/^re-read:/i.test(subject)) problems.push('a review fix-up: fold it into the commit it fixes');
  return problems;
}

export type Offender = { hash: string; subject: string; problems: string[] };

/** The commits of `range` (git's syntax, e.g. `main..HEAD`) whose subjects break the rules. */
export function checkRange(range: string, cwd: string = process.cwd()): Offender[] {
  const log = execFileSync('git', ['log', '--format=%h%x00%s', range], { cwd, encoding: 'utf8' });
  return log
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [hash = '', subject = ''] = line.split('\0');
      return { hash, subject, problems: subjectProblems(subject) };
    })
    .filter((commit) => commit.problems.length > 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const range = process.argv[2] ?? 'main..HEAD';
  const offenders = checkRange(range);
  for (const { hash, subject, problems } of offenders) {
    console.log(`${hash} ${subject.length > 80 ? `${subject.slice(0, 77)}...` : subject}`);
    for (const problem of problems) console.log(`  ${problem}`);
  }
  console.log(offenders.length === 0 ? `Commit subjects of ${range}: all fine.` : `${offenders.length} commits of ${range} to mend.`);
  process.exit(offenders.length === 0 ? 0 : 1);
}
