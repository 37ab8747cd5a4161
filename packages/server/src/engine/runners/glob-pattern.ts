/**
 * Glob patterns as coding agents write them (`**\/*.ts`, `src/*.{js,jsx}`, `test?.py`, `[ab].md`) turned into
 * a regular expression over `/`-separated relative paths. Node 20 has no stable matcher of its own.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/';
        i += slash ? 2 : 1;
        // `**/` is zero or more whole directories; a trailing `**` anything below.
        source += slash ? '(?:[^/]*/)*' : '.*';
      } else {
        source += '[^/]*';
      }
    } else if (ch === '?') {
      source += '[^/]';
    } else if (ch === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        const body = pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = end;
      }
    } else if (ch === '{') {
      braces++;
      source += '(?:';
    } else if (ch === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (ch === ',' && braces > 0) {
      source += '|';
    } else {
      source += ch.replace(/[.+^$()|\\{}\]]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}${')'.repeat(braces)}$`);
}
