import { useCallback, useState } from 'react';

/**
 * Cursor paging for the API's `page_info`: remembers the cursors of the pages already seen so that
 * "Previous" goes back without the API having to page backwards.
 */
export function useCursorPages() {
  const [stack, setStack] = useState<Array<string | undefined>>([undefined]);
  const cursor = stack[stack.length - 1];
  const next = useCallback((nextCursor: string) => setStack((s) => [...s, nextCursor]), []);
  const previous = useCallback(() => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)), []);
  const reset = useCallback(() => setStack([undefined]), []);
  return { cursor, page: stack.length, next, previous, reset, hasPrevious: stack.length > 1 };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

interface PagerProps {
  pages: CursorPages;
  nextCursor: string | null | undefined;
  /** What is paged, for the accessible label (e.g. "runs"). */
  what: string;
}

export function Pager({ pages, nextCursor, what }: PagerProps) {
  if (!pages.hasPrevious && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={`Pages of ${what}`}>
      <button type="button" onClick={pages.previous} disabled={!pages.hasPrevious}>
        Previous page
      </button>
      <span>Page {pages.page}</span>
      <button type="button" onClick={() => nextCursor && pages.next(nextCursor)} disabled={!nextCursor}>
        Next page
      </button>
    </nav>
  );
}
