import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../src/engine/runners/glob-pattern';

describe('globToRegExp', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['**/*.ts', ['a.ts', 'src/a.ts', 'src/deep/b.ts'], ['a.tsx', 'src/a.js']],
    ['src/*.{js,jsx}', ['src/a.js', 'src/b.jsx'], ['src/deep/a.js', 'a.js', 'src/a.ts']],
    ['test?.py', ['test1.py'], ['test12.py', 'dir/test1.py']],
    ['[ab].md', ['a.md', 'b.md'], ['c.md']],
    ['[!ab].md', ['c.md'], ['a.md']],
    ['docs/**', ['docs/a', 'docs/x/y.md'], ['doc/a']],
    ['a+b(1).txt', ['a+b(1).txt'], ['aab1.txt']],
  ];
  it.each(cases)('%s', (pattern, matching, other) => {
    const re = globToRegExp(pattern);
    for (const p of matching) expect(re.test(p), p).toBe(true);
    for (const p of other) expect(re.test(p), p).toBe(false);
  });
});
